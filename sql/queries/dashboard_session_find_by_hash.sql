-- Resolves a dashboard session cookie by the SHA-256 of its value. Returns one row or none.
-- $1 token_hash
select id, team_id, environment, user_email, roles, expires_at, revoked_at
from dashboard_sessions
where token_hash = $1
