-- Puts a company on a plan. Returns one row or none.
-- $1 team_id, $2 environment, $3 id, $4 plan_id
update companies set active_plan_id = $4
where team_id = $1 and environment = $2 and id = $3
returning id, external_id, name, email, wallet_address, logo_url, traits, active_plan_id, active_add_on_ids, created_at, last_seen_at, seq
