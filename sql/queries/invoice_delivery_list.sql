-- The deliveries of an invoice, oldest first. Returns many.
-- $1 team_id, $2 environment, $3 invoice_id
select * from invoice_deliveries where team_id = $1 and environment = $2 and invoice_id = $3 order by created_at, id
