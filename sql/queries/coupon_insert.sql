-- Creates a coupon. Returns one row (none when the code is taken in any case: the unique index on lower(code)).
-- $1 id, $2 team_id, $3 environment, $4 now, $5 the coupon (jsonb, keys named as the columns: code, name, percent_off_bp,
-- amount_off (an integer string), currency, duration, duration_periods, max_redemptions, expires_at, plan_ids (array))
insert into coupons (id, team_id, environment, code, name, percent_off_bp, amount_off, currency, duration, duration_periods,
                     max_redemptions, expires_at, plan_ids, created_at, updated_at)
select $1, $2, $3, c.code, c.name, c.percent_off_bp, c.amount_off, c.currency, c.duration, c.duration_periods,
       c.max_redemptions, c.expires_at, c.plan_ids, $4::timestamptz, $4::timestamptz
from jsonb_populate_record(null::coupons, $5::jsonb) c
on conflict (team_id, environment, lower(code)) do nothing
returning id, code, name, percent_off_bp, amount_off, currency, duration, duration_periods, max_redemptions, redemptions, expires_at, plan_ids, archived_at, created_at, seq
