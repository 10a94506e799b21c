-- The key that issued an embed token, to check it is still valid. Returns one row or none.
-- $1 team_id, $2 environment, $3 id
select id, team_id, environment, type, permissions, expires_at, revoked_at
from api_keys
where team_id = $1 and environment = $2 and id = $3
