-- Writes a subscription's state after a transition (activation, renewal, dunning, cancel, plan change): every
-- mutable column at once, from the row the service computed. Returns one row or none.
-- $1 team_id, $2 environment, $3 id, $5 now, $4 the state (jsonb, keys named as the columns): status, plan_id,
-- billing_period, price_amount, period_index, current_period_start, current_period_end, cancel_at_period_end,
-- canceled_at, cancel_reason, scheduled_plan_id, scheduled_billing_period, token_id, activation_tx_hash,
-- dunning_attempts, next_attempt_at, coupon_id, trial_end, anchor_at, coupon_applied_at, scheduled_coupon_id,
-- scheduled_coupon_applied_at, scheduled_coupon_redemption_id
update subscriptions set (status, plan_id, billing_period, price_amount, period_index,
  current_period_start, current_period_end, cancel_at_period_end, canceled_at,
  cancel_reason, scheduled_plan_id, scheduled_billing_period, token_id,
  activation_tx_hash, dunning_attempts, next_attempt_at, coupon_id, trial_end, updated_at,
  anchor_at, coupon_applied_at, scheduled_coupon_id, scheduled_coupon_applied_at,
  scheduled_coupon_redemption_id) =
  (select r.status, r.plan_id, r.billing_period, r.price_amount, r.period_index,
     r.current_period_start, r.current_period_end, r.cancel_at_period_end, r.canceled_at,
     r.cancel_reason, r.scheduled_plan_id, r.scheduled_billing_period, r.token_id,
     r.activation_tx_hash, r.dunning_attempts, r.next_attempt_at, r.coupon_id, r.trial_end, $5::timestamptz,
     r.anchor_at, r.coupon_applied_at, r.scheduled_coupon_id, r.scheduled_coupon_applied_at,
     r.scheduled_coupon_redemption_id
   from jsonb_populate_record(null::subscriptions, $4::jsonb) r)
where team_id = $1 and environment = $2 and id = $3
returning *
