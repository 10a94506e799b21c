-- The tenant's subscription settings, locked until the transaction ends (created with the defaults when missing),
-- so that concurrent partial updates each merge into what the previous one wrote. Returns one row.
-- $1 team_id, $2 environment, $3 now
insert into subscription_settings (team_id, environment, updated_at)
values ($1, $2, $3)
on conflict (team_id, environment) do update set updated_at = subscription_settings.updated_at
returning tax_rate, dunning_retry_hours, fallback_plan_id
