-- A page of coupons, newest first. Returns many.
-- $1 team_id, $2 environment, $3 before seq (null: from the newest), $4 rows to fetch, $5 include archived (boolean)
select id, code, name, percent_off_bp, amount_off, currency, duration, duration_periods, max_redemptions, redemptions, expires_at, plan_ids, archived_at, created_at, seq
from coupons
where team_id = $1 and environment = $2
  and ($3::bigint is null or seq < $3::bigint)
  and ($5::boolean or archived_at is null)
order by seq desc
limit $4
