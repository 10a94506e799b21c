-- A plan with its prices (amounts as text: micro-units), on-chain ids and entitlements (with each
-- feature's key). Returns one row or none.
-- $1 team_id, $2 environment, $3 id
select p.id, p.name, p.tier, p.description, p.kind, p.trial_days, p.archived_at, p.created_at, p.updated_at, p.seq,
       coalesce((select jsonb_agg(jsonb_build_object('billingPeriod', pr.billing_period, 'amount', pr.amount::text, 'currency', pr.currency)
                                  order by pr.billing_period)
                 from plan_prices pr
                 where pr.team_id = p.team_id and pr.environment = p.environment and pr.plan_id = p.id), '[]'::jsonb) as prices,
       coalesce((select jsonb_object_agg(o.network, o.onchain_plan_id)
                 from plan_onchain_ids o
                 where o.team_id = p.team_id and o.environment = p.environment and o.plan_id = p.id), '{}'::jsonb) as onchain_plan_ids,
       coalesce((select jsonb_agg(jsonb_build_object('id', e.id, 'featureId', e.feature_id, 'featureKey', f.feature_key, 'kind', e.kind,
                                                     'enabled', e.enabled, 'limit', e.limit_amount::text, 'period', e.period,
                                                     'creditsPerUse', e.credits_per_use::text, 'traitKey', e.trait_key,
                                                     'traitOperator', e.trait_operator, 'traitValue', e.trait_value,
                                                     'featureArchived', f.archived_at is not null)
                                  order by f.feature_key)
                 from plan_entitlements e
                 join features f on f.team_id = e.team_id and f.environment = e.environment and f.id = e.feature_id
                 where e.team_id = p.team_id and e.environment = p.environment and e.plan_id = p.id), '[]'::jsonb) as entitlements
from plans p
where p.team_id = $1 and p.environment = $2 and p.id = $3
