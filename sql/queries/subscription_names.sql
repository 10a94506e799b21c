-- The names an operator reads some of the tenant's subscriptions by (a list page's, a detail's): each one's
-- company (its name and the integrator's id for it) and plan. Returns many (one per subscription found).
-- $1 team_id, $2 environment, $3 subscription ids (text[])
select s.id, c.name as company_name, c.external_id as company_external_id, p.name as plan_name
from subscriptions s
join companies c on c.id = s.company_id and c.team_id = s.team_id and c.environment = s.environment
left join plans p on p.id = s.plan_id and p.team_id = s.team_id and p.environment = s.environment
where s.team_id = $1 and s.environment = $2 and s.id = any($3::text[])
