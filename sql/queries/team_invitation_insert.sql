-- Invites an email to a team with roles. Returns one row.
-- $1 id, $2 team_id, $3 email, $4 roles (text[]), $5 token_hash, $6 invited_by, $7 expires_at
insert into team_invitations (id, team_id, email, roles, token_hash, invited_by, expires_at)
values ($1, $2, $3, $4, $5, $6, $7)
returning id, team_id, email, roles, invited_by, expires_at, accepted_at, created_at
