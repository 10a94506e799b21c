-- Records a chain operation as pending, before the chain is asked. A second pending operation of the
-- subscription, or the same attempt again, inserts nothing. Returns one row or none.
-- $1 id, $2 team_id, $3 environment, $4 subscription_id, $5 kind, $6 reference, $7 network, $8 period_start, $9 attempt,
-- $10 invoice_id, $11 amount (numeric text), $12 now, $13 change (jsonb, proration only)
insert into subscription_charges (id, team_id, environment, subscription_id, kind, reference, network, period_start, attempt,
                                  invoice_id, amount, status, created_at, change)
values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11::numeric, 'pending', $12, $13::jsonb)
on conflict do nothing
returning *
