-- Creates a plan. Returns one row.
-- $1 id, $2 team_id, $3 environment, $4 name, $5 tier, $6 description, $7 kind, $8 trial_days
insert into plans (id, team_id, environment, name, tier, description, kind, trial_days)
values ($1, $2, $3, $4, $5, $6, $7, $8)
returning id, name, tier, description, kind, trial_days, archived_at, created_at
