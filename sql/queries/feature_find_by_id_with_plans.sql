-- A feature by id with the plans that hold an entitlement for it (any kind, enabled or not), oldest
-- plan first. Returns one row or none; linked_plans is a jsonb array of {id, name, tier}.
-- $1 team_id, $2 environment, $3 id
select f.id, f.name, f.feature_key, f.feature_type, f.event_key, f.icon, f.description, f.created_at, f.archived_at,
       coalesce((select jsonb_agg(jsonb_build_object('id', p.id, 'name', p.name, 'tier', p.tier) order by p.seq)
                 from plan_entitlements e
                 join plans p on p.team_id = e.team_id and p.environment = e.environment and p.id = e.plan_id
                 where e.team_id = f.team_id and e.environment = f.environment and e.feature_id = f.id), '[]'::jsonb) as linked_plans
from features f
where f.team_id = $1 and f.environment = $2 and f.id = $3
