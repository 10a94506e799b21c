-- Adds an operator to a team with roles. Returns one row; an active membership already held is a unique violation.
-- $1 id, $2 team_id, $3 operator_id, $4 roles (text[])
insert into team_members (id, team_id, operator_id, roles)
values ($1, $2, $3, $4)
returning id, team_id, operator_id, roles, status, created_at
