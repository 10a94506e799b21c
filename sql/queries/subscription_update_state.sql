-- Writes a subscription's state after a transition (activation, renewal, dunning, cancel, plan change): every
-- mutable column at once, from the row the service computed. Returns one row or none.
-- $1 team_id, $2 environment, $3 id, $4 status, $5 plan_id, $6 billing_period, $7 price_amount, $8 period_index,
-- $9 current_period_start, $10 current_period_end, $11 cancel_at_period_end, $12 canceled_at, $13 cancel_reason,
-- $14 scheduled_plan_id, $15 scheduled_billing_period, $16 token_id, $17 activation_tx_hash, $18 dunning_attempts,
-- $19 next_attempt_at, $20 coupon_id, $21 trial_end, $22 now, $23 anchor_at, $24 coupon_applied_at,
-- $25 scheduled_coupon_id, $26 scheduled_coupon_applied_at, $27 scheduled_coupon_redemption_id
update subscriptions set status = $4, plan_id = $5, billing_period = $6, price_amount = $7, period_index = $8,
  current_period_start = $9, current_period_end = $10, cancel_at_period_end = $11, canceled_at = $12,
  cancel_reason = $13, scheduled_plan_id = $14, scheduled_billing_period = $15, token_id = $16,
  activation_tx_hash = $17, dunning_attempts = $18, next_attempt_at = $19, coupon_id = $20, trial_end = $21, updated_at = $22,
  anchor_at = $23, coupon_applied_at = $24, scheduled_coupon_id = $25, scheduled_coupon_applied_at = $26,
  scheduled_coupon_redemption_id = $27
where team_id = $1 and environment = $2 and id = $3
returning *
