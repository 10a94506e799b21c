-- Sets a company's override of one feature, replacing any previous one. Returns one row.
-- $1 id, $2 team_id, $3 environment, $4 company_id, $5 feature_id, $6 kind, $7 enabled, $8 limit_amount,
-- $9 period, $10 credits_per_use, $11 trait_key, $12 trait_operator, $13 trait_value
insert into company_overrides (id, team_id, environment, company_id, feature_id, kind, enabled, limit_amount, period,
                               credits_per_use, trait_key, trait_operator, trait_value)
values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
on conflict (team_id, environment, company_id, feature_id) do update
set kind = excluded.kind, enabled = excluded.enabled, limit_amount = excluded.limit_amount, period = excluded.period,
    credits_per_use = excluded.credits_per_use, trait_key = excluded.trait_key,
    trait_operator = excluded.trait_operator, trait_value = excluded.trait_value
returning id, company_id, feature_id, kind, enabled, limit_amount, period, credits_per_use, trait_key, trait_operator, trait_value
