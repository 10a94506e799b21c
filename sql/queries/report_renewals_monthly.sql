-- Subscription charges and dunning per UTC month in [from, to), by when each charge ended (completed_at) and
-- each subscription was canceled after its last dunning retry (canceled_at). Returns many.
-- $1 team_id, $2 environment, $3 from (inclusive), $4 to (exclusive)
with charges as (
  select date_trunc('month', c.completed_at at time zone 'UTC') as month,
         count(*) filter (where c.kind = 'renewal' and c.status = 'succeeded')::int8 as renewals_succeeded,
         count(*) filter (where c.kind = 'renewal' and c.status = 'failed')::int8 as renewals_failed,
         count(*) filter (where c.status = 'failed')::int8 as failed_charges,
         count(*) filter (where c.kind = 'renewal' and c.attempt > 0)::int8 as dunning_retries,
         count(*) filter (where c.kind = 'renewal' and c.attempt > 0 and c.status = 'succeeded')::int8 as recovered,
         0::int8 as canceled_unpaid
  from subscription_charges c
  where c.team_id = $1 and c.environment = $2 and c.completed_at >= $3 and c.completed_at < $4
  group by 1
), canceled as (
  select date_trunc('month', s.canceled_at at time zone 'UTC') as month,
         0::int8, 0::int8, 0::int8, 0::int8, 0::int8, count(*)::int8
  from subscriptions s
  where s.team_id = $1 and s.environment = $2 and s.canceled_at >= $3 and s.canceled_at < $4
    and s.cancel_reason like 'payment failed:%'
  group by 1
)
select to_char(month, 'YYYY-MM') as month, sum(renewals_succeeded)::int8 as renewals_succeeded, sum(renewals_failed)::int8 as renewals_failed,
       sum(failed_charges)::int8 as failed_charges, sum(dunning_retries)::int8 as dunning_retries,
       sum(recovered)::int8 as recovered, sum(canceled_unpaid)::int8 as canceled_unpaid
from (select * from charges union all select * from canceled) m
group by m.month
order by m.month
