-- Creates a coupon. Returns one row (none when the code is taken in any case: the unique index on lower(code)).
-- $1 id, $2 team_id, $3 environment, $4 code, $5 name, $6 percent_off_bp, $7 amount_off, $8 currency, $9 duration,
-- $10 duration_periods, $11 max_redemptions, $12 expires_at, $13 plan_ids (text[]), $14 now
insert into coupons (id, team_id, environment, code, name, percent_off_bp, amount_off, currency, duration, duration_periods,
                     max_redemptions, expires_at, plan_ids, created_at, updated_at)
values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13::text[], $14, $14)
on conflict (team_id, environment, lower(code)) do nothing
returning id, code, name, percent_off_bp, amount_off, currency, duration, duration_periods, max_redemptions, redemptions, expires_at, plan_ids, archived_at, created_at, seq
