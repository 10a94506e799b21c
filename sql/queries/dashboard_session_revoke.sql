-- Revokes one session (sign-out); an already revoked one keeps its first revokedAt. Returns one row or none.
-- $1 team_id, $2 environment, $3 id
update dashboard_sessions
set revoked_at = coalesce(revoked_at, now())
where team_id = $1 and environment = $2 and id = $3
returning id
