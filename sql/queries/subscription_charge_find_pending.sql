-- A subscription's pending chain operation, if any. Returns one row or none.
-- $1 team_id, $2 environment, $3 subscription_id
select * from subscription_charges where team_id = $1 and environment = $2 and subscription_id = $3 and status = 'pending'
