-- A company with everything a check needs: plan, add-ons, billing anchor, overrides, recent usage
-- counters and unexpired credit lots. Returns one row or none.
-- $1 team_id, $2 environment, $3 our comp_ id or the integrator's id, $4 now, $5 oldest period start to load
select c.id, c.external_id, c.name, c.email, c.wallet_address, c.traits, c.active_plan_id, c.active_add_on_ids,
       coalesce(c.billing_anchor, c.created_at) as billing_anchor,
       coalesce((select json_agg(json_build_array(o.feature_id, o.kind, o.enabled, o.limit_amount::text, o.period,
                                                  o.credits_per_use::text, o.trait_key, o.trait_operator, o.trait_value))
                 from company_overrides o
                 where o.team_id = c.team_id and o.environment = c.environment and o.company_id = c.id), '[]') as overrides,
       coalesce((select json_agg(json_build_array(u.feature_id, (extract(epoch from u.period_start) * 1000)::bigint, u.used::text))
                 from usage_counters u
                 where u.team_id = c.team_id and u.environment = c.environment and u.company_id = c.id
                   and (u.period_start >= $5 or u.period_start = 'epoch')), '[]') as counters,
       coalesce((select json_agg(json_build_array(g.remaining::text, (extract(epoch from g.expires_at) * 1000)::bigint)
                                 order by g.expires_at nulls last, g.created_at, g.id)
                 from credit_grants g
                 where g.team_id = c.team_id and g.environment = c.environment and g.company_id = c.id
                   and g.remaining > 0 and (g.expires_at is null or g.expires_at > $4)), '[]') as lots
from companies c
where c.team_id = $1 and c.environment = $2 and (c.id = $3 or c.external_id = $3)
order by (c.id = $3) desc
limit 1
