-- Replaces an active member's roles. Returns one row or none.
-- $1 team_id, $2 id, $3 roles (text[])
update team_members
set roles = $3
where team_id = $1 and id = $2 and status = 'active'
returning id, team_id, operator_id, roles, status, created_at
