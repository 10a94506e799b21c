-- A subscription's mandate, locked. Returns one row or none.
-- $1 team_id, $2 environment, $3 subscription_id
select * from mandates where team_id = $1 and environment = $2 and subscription_id = $3 for update
