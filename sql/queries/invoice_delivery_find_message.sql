-- The webhook message that carries an invoice to the team's endpoints (its invoice.issued), as its webhook
-- rows recorded it. Returns one row or none.
-- $1 team_id, $2 environment, $3 invoice_id
select webhook_message_id
from invoice_deliveries
where team_id = $1 and environment = $2 and invoice_id = $3 and webhook_message_id is not null
order by created_at, id
limit 1
