-- Batched lastUsedAt update: one statement for every key used since the last flush. Returns none.
-- Never moves lastUsedAt backwards.
-- $1 ids (text[]), $2 used_at ISO timestamps (text[]), same order
update api_keys k
set last_used_at = greatest(k.last_used_at, u.used_at::timestamptz)
from unnest($1::text[], $2::text[]) as u (id, used_at)
where k.id = u.id
