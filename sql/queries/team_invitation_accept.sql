-- Spends an invitation: once, before it expires. The token's hash names the team. Returns one row or none.
-- $1 token_hash, $2 now
update team_invitations
set accepted_at = $2
where token_hash = $1 and accepted_at is null and expires_at > $2
returning id, team_id, email, roles, invited_by, expires_at, accepted_at, created_at
