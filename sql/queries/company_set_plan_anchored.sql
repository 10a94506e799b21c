-- Puts a company on the plan of its subscription and moves its billing anchor to the subscription's, so
-- quota periods reset when the subscription renews. Returns one row or none.
-- $1 team_id, $2 environment, $3 id, $4 plan_id (null: no plan), $5 billing_anchor
update companies set active_plan_id = $4, billing_anchor = $5
where team_id = $1 and environment = $2 and id = $3
returning id, active_plan_id, billing_anchor
