-- Records a chain operation as pending, before the chain is asked. A second pending operation of the
-- subscription, or the same attempt again, inserts nothing. Returns one row or none.
-- $1 team_id, $2 environment, $4 now, $3 the operation (jsonb, keys named as the columns): id, subscription_id,
-- kind, reference, network, period_start, attempt, invoice_id, amount (numeric text), change (proration only)
insert into subscription_charges (id, team_id, environment, subscription_id, kind, reference, network, period_start, attempt,
                                  invoice_id, amount, status, created_at, change)
select r.id, $1, $2, r.subscription_id, r.kind, r.reference, r.network, r.period_start, r.attempt,
       r.invoice_id, r.amount, 'pending', $4::timestamptz, r.change
from jsonb_populate_record(null::subscription_charges, $3::jsonb) r
on conflict do nothing
returning *
