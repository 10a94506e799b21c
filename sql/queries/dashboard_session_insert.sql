-- Creates a dashboard session. Returns one row.
-- $1 id, $2 team_id, $3 environment, $4 user_email, $5 roles (text[]), $6 token_hash, $7 expires_at
insert into dashboard_sessions (id, team_id, environment, user_email, roles, token_hash, expires_at)
values ($1, $2, $3, $4, $5, $6, $7)
returning id, team_id, environment, user_email, roles, expires_at, created_at
