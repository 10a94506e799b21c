-- Sets a plan's price for one billing period, replacing any previous one. Returns one row.
-- $1 team_id, $2 environment, $3 plan_id, $4 billing_period, $5 amount (micro-units), $6 currency, $7 now
insert into plan_prices as pr (team_id, environment, plan_id, billing_period, amount, currency, created_at, updated_at)
values ($1, $2, $3, $4, $5, $6, $7, $7)
on conflict (team_id, environment, plan_id, billing_period) do update
set amount = excluded.amount, currency = excluded.currency, updated_at = excluded.updated_at
returning plan_id, billing_period, amount, currency
