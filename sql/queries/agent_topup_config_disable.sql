-- Disables one of the tenant's top-up configurations (the monitor skips it until POST /agent/dispatch enables it
-- again). Returns the row, or none when the tenant has no such configuration.
-- $1 team_id, $2 environment, $3 id, $4 now
update agent_topup_configs set enabled = false, updated_at = $4
where team_id = $1 and environment = $2 and id = $3
returning id, team_id, environment, network, token_symbol, target_wallet, min_balance_threshold::text, topup_amount::text, enabled, armed,
  crossing, created_at, updated_at, seq
