-- Every network on which a tenant's on-chain plan id names a plan (POST /subscriptions/activate's planId),
-- with the plan. Returns many rows (at most one per network).
-- $1 team_id, $2 environment, $3 onchain_plan_id
select o.network, o.plan_id, p.name, p.kind, p.trial_days, p.archived_at
from plan_onchain_ids o
join plans p on p.team_id = o.team_id and p.environment = o.environment and p.id = o.plan_id
where o.team_id = $1 and o.environment = $2 and o.onchain_plan_id = $3
order by o.network
