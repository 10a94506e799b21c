-- Creates a dashboard session for a team member. Returns one row.
-- $1 id, $2 team_id, $3 environment, $4 user_email, $5 token_hash, $6 expires_at, $7 operator_id,
-- $8 member_id
insert into dashboard_sessions (id, team_id, environment, user_email, token_hash, expires_at, operator_id, member_id)
values ($1, $2, $3, $4, $5, $6, $7, $8)
returning id, team_id, environment, user_email, expires_at, created_at
