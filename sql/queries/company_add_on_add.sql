-- Adds an add-on plan to a company (no-op when it already has it). Returns one row or none.
-- $1 team_id, $2 environment, $3 company id, $4 plan id
update companies
set active_add_on_ids = case when $4 = any(active_add_on_ids) then active_add_on_ids else array_append(active_add_on_ids, $4) end
where team_id = $1 and environment = $2 and id = $3
returning id, active_add_on_ids
