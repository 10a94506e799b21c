-- A team's invitations not yet accepted nor expired, newest first. Returns many rows.
-- $1 team_id, $2 now
select id, team_id, email, roles, invited_by, expires_at, accepted_at, created_at
from team_invitations
where team_id = $1 and accepted_at is null and expires_at > $2
order by created_at desc, id
