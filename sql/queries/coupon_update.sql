-- Writes a coupon's editable columns (the caller merged the patch and checked what may change). Returns one row or none.
-- $1 team_id, $2 environment, $3 id, $4 now, $5 the columns (jsonb, keys named as the columns: name, percent_off_bp,
-- amount_off (an integer string), currency, duration, duration_periods, max_redemptions, expires_at, plan_ids (array), archived_at)
update coupons k
set name = c.name, percent_off_bp = c.percent_off_bp, amount_off = c.amount_off, currency = c.currency, duration = c.duration,
    duration_periods = c.duration_periods, max_redemptions = c.max_redemptions, expires_at = c.expires_at,
    plan_ids = c.plan_ids, archived_at = c.archived_at, updated_at = $4::timestamptz
from jsonb_populate_record(null::coupons, $5::jsonb) c
where k.team_id = $1 and k.environment = $2 and k.id = $3
returning k.id, k.code, k.name, k.percent_off_bp, k.amount_off, k.currency, k.duration, k.duration_periods, k.max_redemptions,
          k.redemptions, k.expires_at, k.plan_ids, k.archived_at, k.created_at, k.seq
