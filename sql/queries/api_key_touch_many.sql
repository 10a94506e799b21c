-- Batched lastUsedAt update: one statement for every key used since the last flush. Returns none.
-- Never moves lastUsedAt backwards. Each key is named with its tenant, like every tenant statement.
-- $1 team_ids (text[]), $2 environments (text[]), $3 ids (text[]), $4 used_at ISO timestamps (text[]), same order
update api_keys k
set last_used_at = greatest(k.last_used_at, u.used_at::timestamptz)
from unnest($1::text[], $2::text[], $3::text[], $4::text[]) as u (team_id, environment, id, used_at)
where k.team_id = u.team_id and k.environment = u.environment and k.id = u.id
