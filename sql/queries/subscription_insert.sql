-- Reserves an activation: the subscription row, INCOMPLETE, committed before the chain is asked. A company
-- with a live subscription, a reference already used, or (exclusive_account) a payment account another live
-- subscription draws on, inserts nothing. Returns one row or none.
-- $1 team_id, $2 environment, $4 now, $3 the row (jsonb, keys named as the columns): id, company_id, plan_id,
-- billing_period, price_amount, currency, network, token_symbol, payment_account, payee_wallet, subscriber_email,
-- coupon_id, anchor_at, current_period_start, current_period_end, trial_end, activation_reference,
-- coupon_redemption_id, exclusive_account
insert into subscriptions (id, team_id, environment, company_id, plan_id, billing_period, price_amount, currency, network,
                           token_symbol, payment_account, payee_wallet, subscriber_email, coupon_id, status, anchor_at,
                           current_period_start, current_period_end, trial_end, activation_reference, created_at, updated_at,
                           coupon_redemption_id, exclusive_account)
select r.id, $1, $2, r.company_id, r.plan_id, r.billing_period, r.price_amount, r.currency, r.network,
       r.token_symbol, r.payment_account, r.payee_wallet, r.subscriber_email, r.coupon_id, 'INCOMPLETE', r.anchor_at,
       r.current_period_start, r.current_period_end, r.trial_end, r.activation_reference, $4::timestamptz, $4::timestamptz,
       r.coupon_redemption_id, r.exclusive_account
from jsonb_populate_record(null::subscriptions, $3::jsonb) r
on conflict do nothing
returning *
