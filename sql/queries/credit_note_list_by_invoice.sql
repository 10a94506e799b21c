-- The credit notes of an invoice of the tenant, oldest first. Returns many.
-- $1 team_id, $2 environment, $3 invoice_id
select * from credit_notes where team_id = $1 and environment = $2 and invoice_id = $3 order by seq
