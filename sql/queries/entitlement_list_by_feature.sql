-- Every grant of one feature: its plan entitlements and its company overrides, each with the name
-- of the plan or company that holds it. Returns many.
-- $1 team_id, $2 environment, $3 feature_id
select 'plan' as source, p.id as owner_id, p.name as owner_name, e.kind
from plan_entitlements e
join plans p on p.team_id = e.team_id and p.environment = e.environment and p.id = e.plan_id
where e.team_id = $1 and e.environment = $2 and e.feature_id = $3
union all
select 'company' as source, c.id as owner_id, coalesce(c.name, c.external_id, c.id) as owner_name, o.kind
from company_overrides o
join companies c on c.team_id = o.team_id and c.environment = o.environment and c.id = o.company_id
where o.team_id = $1 and o.environment = $2 and o.feature_id = $3
order by source desc, owner_name
