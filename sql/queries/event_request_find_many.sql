-- What the first attempts of replayed requests asked for, to tell a retry from a key reused for a
-- different request. Returns many.
-- $1 event ids, $2 their team_ids, $3 their environments (parallel arrays: a batch spans tenants)
select e.id, e.name, e.quantity
from unnest($1::text[], $2::text[], $3::text[]) as k (id, team_id, environment)
join events e on e.id = k.id and e.team_id = k.team_id and e.environment = k.environment
