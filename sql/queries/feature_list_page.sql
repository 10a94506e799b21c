-- A page of features, newest first, with the plans holding an entitlement for each. Returns many.
-- $1 team_id, $2 environment, $3 before seq (null: from the newest), $4 rows to fetch, $5 include archived (boolean)
select f.id, f.name, f.feature_key, f.feature_type, f.event_key, f.icon, f.description, f.created_at, f.archived_at, f.seq,
       coalesce((select jsonb_agg(jsonb_build_object('id', p.id, 'name', p.name, 'tier', p.tier) order by p.seq)
                 from plan_entitlements e
                 join plans p on p.team_id = e.team_id and p.environment = e.environment and p.id = e.plan_id
                 where e.team_id = f.team_id and e.environment = f.environment and e.feature_id = f.id), '[]'::jsonb) as linked_plans
from features f
where f.team_id = $1 and f.environment = $2
  and ($3::bigint is null or f.seq < $3::bigint)
  and ($5::boolean or f.archived_at is null)
order by f.seq desc
limit $4
