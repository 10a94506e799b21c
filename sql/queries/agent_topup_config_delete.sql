-- Deletes one of the tenant's top-up configurations; its dispatches stay. Returns the row, or none when the tenant
-- has no such configuration.
-- $1 team_id, $2 environment, $3 id
delete from agent_topup_configs
where team_id = $1 and environment = $2 and id = $3
returning id, team_id, environment, network, token_symbol, target_wallet, min_balance_threshold::text, topup_amount::text, enabled, armed,
  crossing, created_at, updated_at, seq
