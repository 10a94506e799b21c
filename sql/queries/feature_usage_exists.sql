-- Whether a feature has usage history: metered events, usage counters or refusal tallies. Returns one row.
-- $1 team_id, $2 environment, $3 feature id
select exists (select 1 from events e where e.team_id = $1 and e.environment = $2 and e.feature_id = $3)
    or exists (select 1 from usage_counters u where u.team_id = $1 and u.environment = $2 and u.feature_id = $3)
    or exists (select 1 from usage_refusals r where r.team_id = $1 and r.environment = $2 and r.feature_id = $3) as used
