-- Sets the tenant's subscription settings (the whole record). Returns one row.
-- $1 team_id, $2 environment, $3 tax_rate (1/10000 of a percent), $4 dunning_retry_hours (int[]), $5 fallback_plan_id, $6 now
insert into subscription_settings (team_id, environment, tax_rate, dunning_retry_hours, fallback_plan_id, updated_at)
values ($1, $2, $3, $4::int[], $5, $6)
on conflict (team_id, environment) do update set
  tax_rate = excluded.tax_rate, dunning_retry_hours = excluded.dunning_retry_hours,
  fallback_plan_id = excluded.fallback_plan_id, updated_at = excluded.updated_at
returning tax_rate, dunning_retry_hours, fallback_plan_id
