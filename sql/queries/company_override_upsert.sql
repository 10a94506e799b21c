-- Sets a company's override of one feature, replacing any previous one. Returns one row.
-- $1 id, $2 team_id, $3 environment, $4 company_id, $5 feature_id, $6 the grant (jsonb, keys named as the columns: kind,
-- enabled, limit_amount, period, credits_per_use, trait_key, trait_operator, trait_value; quantities as integer strings)
insert into company_overrides (id, team_id, environment, company_id, feature_id, kind, enabled, limit_amount, period,
                               credits_per_use, trait_key, trait_operator, trait_value)
select $1, $2, $3, $4, $5, g.kind, g.enabled, g.limit_amount, g.period, g.credits_per_use, g.trait_key, g.trait_operator, g.trait_value
from jsonb_populate_record(null::company_overrides, $6::jsonb) g
on conflict (team_id, environment, company_id, feature_id) do update
set kind = excluded.kind, enabled = excluded.enabled, limit_amount = excluded.limit_amount, period = excluded.period,
    credits_per_use = excluded.credits_per_use, trait_key = excluded.trait_key,
    trait_operator = excluded.trait_operator, trait_value = excluded.trait_value
returning id, company_id, feature_id, kind, enabled, limit_amount, period, credits_per_use, trait_key, trait_operator, trait_value
