-- Removes a company's override of one feature (the plans' entitlements apply again). Returns one row or none.
-- $1 team_id, $2 environment, $3 company_id, $4 feature_id
delete from company_overrides
where team_id = $1 and environment = $2 and company_id = $3 and feature_id = $4
returning id, company_id, feature_id, kind
