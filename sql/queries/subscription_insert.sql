-- Reserves an activation: the subscription row, INCOMPLETE, committed before the chain is asked. A company
-- with a live subscription, a reference already used, or (exclusive_account) a payment account another live
-- subscription draws on, inserts nothing. Returns one row or none.
-- $1 id, $2 team_id, $3 environment, $4 company_id, $5 plan_id, $6 billing_period, $7 price_amount, $8 currency,
-- $9 network, $10 token_symbol, $11 payment_account, $12 payee_wallet, $13 subscriber_email, $14 coupon_id,
-- $15 anchor_at, $16 current_period_start, $17 current_period_end, $18 trial_end, $19 activation_reference, $20 now,
-- $21 coupon_redemption_id, $22 exclusive_account
insert into subscriptions (id, team_id, environment, company_id, plan_id, billing_period, price_amount, currency, network,
                           token_symbol, payment_account, payee_wallet, subscriber_email, coupon_id, status, anchor_at,
                           current_period_start, current_period_end, trial_end, activation_reference, created_at, updated_at,
                           coupon_redemption_id, exclusive_account)
values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, 'INCOMPLETE', $15, $16, $17, $18, $19, $20, $20, $21, $22)
on conflict do nothing
returning *
