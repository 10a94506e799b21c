-- Issue 21, plan changes (POST /companies/plan): a coupon redeemed mid-life counts its periods from the period
-- it was applied at, a change at period end may carry its own coupon, and a proration pull remembers the terms
-- it pays for so whoever records its outcome (the request, or the reconciliation job) applies them.

-- The period index where the coupon's first discounted period falls (negative after a change of billing
-- period: src/modules/subscriptions/proration-terms.ts). 0 for a coupon redeemed at activation.
alter table subscriptions add column coupon_applied_at integer not null default 0;
alter table subscriptions add column scheduled_coupon_id text references coupons (id);
alter table subscriptions add column scheduled_coupon_applied_at integer;
alter table subscriptions add constraint subscriptions_scheduled_coupon
  check ((scheduled_coupon_id is null) = (scheduled_coupon_applied_at is null)
         and (scheduled_coupon_id is null or scheduled_plan_id is not null));

-- kind = 'proration': the subscription's terms once the pull lands (plan, billing period, price, coupon,
-- anchor, period), written by the change that queued it; null for every other kind.
alter table subscription_charges add column change jsonb;
alter table subscription_charges add constraint subscription_charges_change
  check ((change is not null) = (kind = 'proration'));
