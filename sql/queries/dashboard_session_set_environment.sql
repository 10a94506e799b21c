-- Switches a live session's active environment. Returns one row or none.
-- $1 team_id, $2 environment (current), $3 id, $4 environment (new)
update dashboard_sessions
set environment = $4
where team_id = $1 and environment = $2 and id = $3 and revoked_at is null
returning id, environment, expires_at
