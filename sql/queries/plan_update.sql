-- Writes a plan's editable columns (the caller merged the patch). Returns one row or none.
-- $1 team_id, $2 environment, $3 id, $4 name, $5 tier, $6 description, $7 kind, $8 trial_days,
-- $9 archived_at (null: not archived), $10 now
update plans
set name = $4, tier = $5, description = $6, kind = $7, trial_days = $8, archived_at = $9, updated_at = $10
where team_id = $1 and environment = $2 and id = $3
returning id
