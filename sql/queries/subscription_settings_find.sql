-- The tenant's subscription settings. Returns one row or none (none: the defaults).
-- $1 team_id, $2 environment
select tax_rate, dunning_retry_hours, fallback_plan_id from subscription_settings where team_id = $1 and environment = $2
