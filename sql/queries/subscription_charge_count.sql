-- How many chain operations of one kind a subscription made for one period (the next one's attempt number).
-- $1 team_id, $2 environment, $3 subscription_id, $4 kind, $5 period_start
select count(*)::int as n from subscription_charges
where team_id = $1 and environment = $2 and subscription_id = $3 and kind = $4 and period_start = $5
