-- Writes what is left of credit grants locked by credit_grant_lock_many in the same transaction. Returns none.
-- $1 team_id[], $2 environment[], $3 id[], $4 remaining[] as text (parallel arrays)
update credit_grants g
set remaining = v.remaining::bigint
from unnest($1::text[], $2::text[], $3::text[], $4::text[]) as v (team_id, environment, id, remaining)
where g.team_id = v.team_id and g.environment = v.environment and g.id = v.id
