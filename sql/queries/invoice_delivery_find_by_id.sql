-- One invoice delivery of the tenant. Returns one row or none.
-- $1 team_id, $2 environment, $3 id
select * from invoice_deliveries where team_id = $1 and environment = $2 and id = $3
