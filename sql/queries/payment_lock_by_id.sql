-- A payment of the tenant, locked until the transaction ends: the backfill checks under it that no invoice
-- took the payment meanwhile (another backfill run). Returns one row or none.
-- $1 team_id, $2 environment, $3 id
select id, invoice_id from payments where team_id = $1 and environment = $2 and id = $3 for update
