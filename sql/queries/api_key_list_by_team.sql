-- Every key of a tenant (team and environment), newest first. Returns many.
-- $1 team_id, $2 environment
select id, name, prefix, description, type, permissions, environment, expires_at, revoked_at, last_used_at, created_at
from api_keys
where team_id = $1 and environment = $2
order by seq desc
