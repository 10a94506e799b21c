-- Writes the new totals of counters locked by usage_counter_lock_many in the same transaction. Returns none.
-- $1 team_id[], $2 environment[], $3 company_id[], $4 feature_id[], $5 period_start[] as ISO text, $6 used[] as text (parallel arrays)
update usage_counters u
set used = v.used::bigint, updated_at = now()
from unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[]) as v (team_id, environment, company_id, feature_id, period_start, used)
where u.team_id = v.team_id and u.environment = v.environment and u.company_id = v.company_id
  and u.feature_id = v.feature_id and u.period_start = v.period_start::timestamptz
