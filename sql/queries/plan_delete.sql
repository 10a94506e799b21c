-- Deletes a plan; its prices, on-chain ids and entitlements go with it (on delete cascade). Returns one row or none.
-- $1 team_id, $2 environment, $3 id
delete from plans
where team_id = $1 and environment = $2 and id = $3
returning id
