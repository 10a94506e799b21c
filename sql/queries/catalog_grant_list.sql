-- Every plan entitlement of a tenant, for the catalog snapshot. Returns many rows.
-- $1 team_id, $2 environment
-- The join reads nothing from plans: it keeps an entitlement whose plan is not this tenant's out of the
-- snapshot, whatever the rows say.
select e.plan_id, e.feature_id, e.kind, e.enabled, e.limit_amount, e.period,
       e.credits_per_use, e.trait_key, e.trait_operator, e.trait_value
from plan_entitlements e
join plans p on p.id = e.plan_id and p.team_id = e.team_id and p.environment = e.environment
where e.team_id = $1 and e.environment = $2
