-- Batched lastUsedAt update: one statement for every key used since the last flush. Returns none.
-- Never moves lastUsedAt backwards.
-- $1 ids (text[]), $2 used_at epoch milliseconds (int8[]), same order
update api_keys k
set last_used_at = greatest(k.last_used_at, to_timestamp(u.used_at / 1000.0))
from unnest($1::text[], $2::int8[]) as u (id, used_at)
where k.id = u.id
