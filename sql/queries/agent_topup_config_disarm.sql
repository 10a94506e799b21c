-- Claims the current crossing of an armed, enabled configuration: disarms it and counts the crossing. Of two
-- instances ticking at once, the second waits for the first's row lock and then finds it disarmed: no row. A
-- crossing refused for the daily cap counts as armed once its rearm_at has passed.
-- Returns the row, or none.
-- $1 id, $2 now, $3 team_id, $4 environment
update agent_topup_configs set armed = false, rearm_at = null, crossing = crossing + 1, updated_at = $2
where id = $1 and team_id = $3 and environment = $4 and enabled and (armed or rearm_at <= $2)
returning id, team_id, environment, network, token_symbol, target_wallet, topup_amount::text, crossing
