-- Revokes every live session of a member (removed from the team), in either environment. Returns many rows.
-- $1 team_id, $2 member_id
update dashboard_sessions
set revoked_at = now()
where team_id = $1 and member_id = $2 and revoked_at is null
returning id
