-- Writes a coupon's editable columns (the caller merged the patch and checked what may change). Returns one row or none.
-- $1 team_id, $2 environment, $3 id, $4 name, $5 percent_off_bp, $6 amount_off, $7 currency, $8 duration,
-- $9 duration_periods, $10 max_redemptions, $11 expires_at, $12 plan_ids (text[]), $13 archived_at, $14 now
update coupons
set name = $4, percent_off_bp = $5, amount_off = $6, currency = $7, duration = $8, duration_periods = $9,
    max_redemptions = $10, expires_at = $11, plan_ids = $12::text[], archived_at = $13, updated_at = $14
where team_id = $1 and environment = $2 and id = $3
returning id, code, name, percent_off_bp, amount_off, currency, duration, duration_periods, max_redemptions, redemptions, expires_at, plan_ids, archived_at, created_at, seq
