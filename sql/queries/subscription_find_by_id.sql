-- One subscription of the tenant, unlocked. Returns one row or none.
-- $1 team_id, $2 environment, $3 id
select * from subscriptions where team_id = $1 and environment = $2 and id = $3
