-- Claims the current crossing of an armed, enabled configuration: disarms it and counts the crossing. Of two
-- instances ticking at once, the second waits for the first's row lock and then finds it disarmed: no row.
-- Returns the row, or none.
-- $1 id, $2 now
update agent_topup_configs set armed = false, crossing = crossing + 1, updated_at = $2
where id = $1 and armed and enabled
returning id, team_id, environment, network, token_symbol, target_wallet, topup_amount::text, crossing
