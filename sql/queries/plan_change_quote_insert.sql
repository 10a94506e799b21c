-- Records a plan change's quote. Returns none.
-- $1 id, $2 team_id, $3 environment, $4 company_id, $5 subscription_id, $6 plan_id, $7 billing_period,
-- $8 coupon_code, $9 effective, $10 basis, $11 priced_at, $12 expires_at, $13 invoice_total,
-- $14 credit_to_balance, $15 net
insert into plan_change_quotes (id, team_id, environment, company_id, subscription_id, plan_id, billing_period,
  coupon_code, effective, basis, priced_at, expires_at, invoice_total, credit_to_balance, net, created_at)
values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $11)
