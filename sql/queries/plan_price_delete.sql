-- Removes a plan's price for one billing period. Returns one row or none.
-- $1 team_id, $2 environment, $3 plan_id, $4 billing_period
delete from plan_prices
where team_id = $1 and environment = $2 and plan_id = $3 and billing_period = $4
returning plan_id, billing_period, amount, currency
