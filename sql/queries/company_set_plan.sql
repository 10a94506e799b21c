-- Puts a company on a plan. The billing anchor is set the first time a company gets a plan and never
-- moves afterwards. Returns one row or none.
-- $1 team_id, $2 environment, $3 id, $4 plan_id, $5 now (the anchor if none is set yet)
update companies set active_plan_id = $4, billing_anchor = coalesce(billing_anchor, $5::timestamptz)
where team_id = $1 and environment = $2 and id = $3
returning id, external_id, name, email, wallet_address, logo_url, traits, active_plan_id, active_add_on_ids,
          billing_anchor, created_at, last_seen_at, seq
