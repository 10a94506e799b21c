-- Every key of a team, both environments, newest first. Returns many.
-- $1 team_id
select id, name, prefix, description, type, permissions, environment, expires_at, revoked_at, last_used_at, created_at
from api_keys
where team_id = $1 and environment in ('development', 'production')
order by seq desc
