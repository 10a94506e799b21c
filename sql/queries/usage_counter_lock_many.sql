-- Creates missing usage counters and locks them all, in key order (so concurrent batches never
-- deadlock), returning the units used so far. Returns one row per (distinct) input counter.
-- $1 team_id[], $2 environment[], $3 company_id[], $4 feature_id[], $5 period_start[] as ISO text (parallel arrays)
insert into usage_counters (team_id, environment, company_id, feature_id, period_start)
select k.team_id, k.environment, k.company_id, k.feature_id, k.period_start::timestamptz
from unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[]) as k (team_id, environment, company_id, feature_id, period_start)
order by 1, 2, 3, 4, 5
on conflict (team_id, environment, company_id, feature_id, period_start) do update set used = usage_counters.used
returning team_id, environment, company_id, feature_id, (extract(epoch from period_start) * 1000)::bigint as period_ms, used
