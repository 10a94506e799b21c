-- The invoice made from a checkout session or a subscription period. Returns one row or none.
-- $1 team_id, $2 environment, $3 source, $4 source_id
select * from invoices where team_id = $1 and environment = $2 and source = $3 and source_id = $4
