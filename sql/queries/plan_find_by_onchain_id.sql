-- The plan an on-chain plan id names on one network. Returns one row or none.
-- $1 team_id, $2 environment, $3 network, $4 on-chain plan id
select p.id, p.name, p.tier, p.kind, p.trial_days, p.archived_at
from plan_onchain_ids o
join plans p on p.team_id = o.team_id and p.environment = o.environment and p.id = o.plan_id
where o.team_id = $1 and o.environment = $2 and o.network = $3 and o.onchain_plan_id = $4
