-- The tenant's plans among the given ids, share-locked so they cannot vanish before the caller's
-- transaction commits. Returns many (unknown ids are simply absent).
-- $1 team_id, $2 environment, $3 ids (text[])
select id, name, tier, kind, archived_at
from plans
where team_id = $1 and environment = $2 and id = any($3::text[])
for share
