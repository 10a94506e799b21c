-- A plan's price for one billing period, with the plan's kind, trial days and archived time. Returns one row or none.
-- $1 team_id, $2 environment, $3 plan_id, $4 billing_period
select pr.plan_id, pr.billing_period, pr.amount, pr.currency, p.kind, p.trial_days, p.archived_at
from plan_prices pr
join plans p on p.team_id = pr.team_id and p.environment = pr.environment and p.id = pr.plan_id
where pr.team_id = $1 and pr.environment = $2 and pr.plan_id = $3 and pr.billing_period = $4
