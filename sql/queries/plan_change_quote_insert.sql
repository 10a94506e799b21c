-- Records a plan change's quote. Returns none.
-- $1 team_id, $2 environment, $3 the quote (jsonb, keys named as the columns): id, company_id, subscription_id,
-- plan_id, billing_period, coupon_code, effective, basis, priced_at, expires_at, invoice_total,
-- credit_to_balance, net
insert into plan_change_quotes (id, team_id, environment, company_id, subscription_id, plan_id, billing_period,
  coupon_code, effective, basis, priced_at, expires_at, invoice_total, credit_to_balance, net, created_at)
select r.id, $1, $2, r.company_id, r.subscription_id, r.plan_id, r.billing_period,
  r.coupon_code, r.effective, r.basis, r.priced_at, r.expires_at, r.invoice_total, r.credit_to_balance, r.net, r.priced_at
from jsonb_populate_record(null::plan_change_quotes, $3::jsonb) r
