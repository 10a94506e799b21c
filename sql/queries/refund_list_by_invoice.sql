-- The refunds of an invoice, oldest first, each with the credit note recorded with it. Returns many.
-- $1 team_id, $2 environment, $3 invoice_id
select r.*, c.id as credit_note_id
from refunds r
left join credit_notes c on c.refund_id = r.id
where r.team_id = $1 and r.environment = $2 and r.invoice_id = $3
order by r.created_at, r.id
