-- Records one redemption of a coupon. Returns one row.
-- $1 id, $2 team_id, $3 environment, $4 coupon_id, $5 company_id, $6 plan_id, $7 redeemed_at
insert into coupon_redemptions (id, team_id, environment, coupon_id, company_id, plan_id, redeemed_at)
values ($1, $2, $3, $4, $5, $6, $7)
returning id, coupon_id, company_id, plan_id, redeemed_at
