-- Money per UTC month and currency in [from, to), in micro-units: what paid invoices collected (by paid_at),
-- what was refunded (refunds, by their created_at) and credited (credit notes' credit part, by created_at).
-- Returns many.
-- $1 team_id, $2 environment, $3 from (inclusive), $4 to (exclusive)
with paid as (
  select date_trunc('month', i.paid_at at time zone 'UTC') as month, i.currency,
         sum(i.amount_paid)::int8 as paid, count(*)::int8 as invoices_paid, 0::int8 as refunded, 0::int8 as credited
  from invoices i
  where i.team_id = $1 and i.environment = $2 and i.status = 'PAID'
    and i.paid_at >= $3 and i.paid_at < $4
  group by 1, 2
), refunded as (
  select date_trunc('month', r.created_at at time zone 'UTC') as month, i.currency,
         0::int8 as paid, 0::int8 as invoices_paid, sum(r.amount)::int8 as refunded, 0::int8 as credited
  from refunds r
  join invoices i on i.id = r.invoice_id and i.team_id = r.team_id and i.environment = r.environment
  where r.team_id = $1 and r.environment = $2 and r.created_at >= $3 and r.created_at < $4
  group by 1, 2
), credited as (
  select date_trunc('month', c.created_at at time zone 'UTC') as month, i.currency,
         0::int8 as paid, 0::int8 as invoices_paid, 0::int8 as refunded, sum(c.credit_amount)::int8 as credited
  from credit_notes c
  join invoices i on i.id = c.invoice_id and i.team_id = c.team_id and i.environment = c.environment
  where c.team_id = $1 and c.environment = $2 and c.created_at >= $3 and c.created_at < $4 and c.credit_amount > 0
  group by 1, 2
)
select to_char(month, 'YYYY-MM') as month, currency, sum(paid)::int8 as paid, sum(invoices_paid)::int8 as invoices_paid,
       sum(refunded)::int8 as refunded, sum(credited)::int8 as credited
from (select * from paid union all select * from refunded union all select * from credited) m
group by m.month, m.currency
order by m.currency, m.month
