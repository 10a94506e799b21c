-- Removes the entitlement of a feature on a plan. Returns one row or none.
-- $1 team_id, $2 environment, $3 plan_id, $4 feature_id
delete from plan_entitlements
where team_id = $1 and environment = $2 and plan_id = $3 and feature_id = $4
returning id, plan_id, feature_id, kind, enabled, limit_amount, period, credits_per_use, trait_key, trait_operator, trait_value
