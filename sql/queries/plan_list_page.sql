-- A page of plans, newest first, with their prices and on-chain ids (entitlements: GET the plan).
-- Returns many.
-- $1 team_id, $2 environment, $3 before seq (null: from the newest), $4 rows to fetch,
-- $5 include archived (boolean), $6 kind (null: any)
select p.id, p.name, p.tier, p.description, p.kind, p.trial_days, p.archived_at, p.created_at, p.updated_at, p.seq,
       coalesce((select jsonb_agg(jsonb_build_object('billingPeriod', pr.billing_period, 'amount', pr.amount::text, 'currency', pr.currency)
                                  order by pr.billing_period)
                 from plan_prices pr
                 where pr.team_id = p.team_id and pr.environment = p.environment and pr.plan_id = p.id), '[]'::jsonb) as prices,
       coalesce((select jsonb_object_agg(o.network, o.onchain_plan_id)
                 from plan_onchain_ids o
                 where o.team_id = p.team_id and o.environment = p.environment and o.plan_id = p.id), '{}'::jsonb) as onchain_plan_ids
from plans p
where p.team_id = $1 and p.environment = $2
  and ($3::bigint is null or p.seq < $3::bigint)
  and ($5::boolean or p.archived_at is null)
  and ($6::text is null or p.kind = $6::text)
order by p.seq desc
limit $4
