-- Every plan entitlement of a tenant whose feature is not archived, for the catalog snapshot. Returns many rows.
-- $1 team_id, $2 environment
-- The join on plans reads nothing from them: it keeps an entitlement whose plan is not this tenant's out
-- of the snapshot, whatever the rows say. Archived plans still grant: companies on them keep what they have.
select e.plan_id, e.feature_id, e.kind, e.enabled, e.limit_amount, e.period,
       e.credits_per_use, e.trait_key, e.trait_operator, e.trait_value
from plan_entitlements e
join plans p on p.id = e.plan_id and p.team_id = e.team_id and p.environment = e.environment
join features f on f.id = e.feature_id and f.team_id = e.team_id and f.environment = e.environment
where e.team_id = $1 and e.environment = $2 and f.archived_at is null
