-- Removes an active member from a team (the row stays, for the audit trail). Returns one row or none.
-- $1 team_id, $2 id
update team_members
set status = 'removed', removed_at = now()
where team_id = $1 and id = $2 and status = 'active'
returning id, team_id, operator_id, roles, status, created_at
