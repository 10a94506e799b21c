-- A coupon by code, in any case. Returns one row or none.
-- $1 team_id, $2 environment, $3 code
select id, code, name, percent_off_bp, amount_off, currency, duration, duration_periods, max_redemptions, redemptions, expires_at, plan_ids, archived_at, created_at, seq
from coupons
where team_id = $1 and environment = $2 and lower(code) = lower($3)
