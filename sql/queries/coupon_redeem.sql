-- Counts one redemption of a coupon, atomically: the guard in the WHERE clause is evaluated on the row
-- as locked, so concurrent redemptions queue on the row and the one that would pass max_redemptions
-- finds no row. Unknown, archived, expired, exhausted or not valid for the plan: no row (the caller
-- reads the coupon again to say which). Returns one row or none.
-- $1 team_id, $2 environment, $3 code (any case), $4 plan id, $5 now
update coupons
set redemptions = redemptions + 1, updated_at = $5
where team_id = $1 and environment = $2 and lower(code) = lower($3)
  and archived_at is null
  and (expires_at is null or expires_at > $5)
  and (max_redemptions is null or redemptions < max_redemptions)
  and (cardinality(plan_ids) = 0 or $4 = any(plan_ids))
returning id, code, name, percent_off_bp, amount_off, currency, duration, duration_periods, max_redemptions, redemptions, expires_at, plan_ids, archived_at, created_at, seq
