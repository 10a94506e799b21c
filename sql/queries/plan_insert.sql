-- Creates a plan. Returns one row.
-- $1 id, $2 team_id, $3 environment, $4 name, $5 tier, $6 description
insert into plans (id, team_id, environment, name, tier, description)
values ($1, $2, $3, $4, $5, $6)
returning id, name, tier, description, created_at
