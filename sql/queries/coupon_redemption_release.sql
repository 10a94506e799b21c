-- Undoes one redemption whose purchase failed (an activation that charged nothing): deletes the redemption and
-- lowers its coupon's count, in one statement. Returns one row (the coupon's id) or none.
-- $1 team_id, $2 environment, $3 redemption id, $4 now
with released as (
  delete from coupon_redemptions where team_id = $1 and environment = $2 and id = $3 returning coupon_id
)
update coupons set redemptions = redemptions - 1, updated_at = $4
where id = (select coupon_id from released) and redemptions > 0
returning id
