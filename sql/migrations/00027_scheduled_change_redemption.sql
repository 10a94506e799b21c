-- A plan change at period end redeems its coupon when it is scheduled (src/modules/subscriptions/change-plan.ts);
-- the redemption is kept with the scheduled change so the coupon is given back when that change is replaced or
-- undone before it takes effect, and a retried request that schedules the same change redeems nothing more.
alter table subscriptions add column scheduled_coupon_redemption_id text;
alter table subscriptions add constraint subscriptions_scheduled_redemption
  check (scheduled_coupon_redemption_id is null or scheduled_coupon_id is not null);
