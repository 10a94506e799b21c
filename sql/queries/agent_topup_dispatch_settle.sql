-- Settles a pending dispatch: confirmed with its transaction, or failed with the reason. Returns the row, or none
-- when it was settled already (by the tick or by recovery, whichever came first).
-- $1 id, $2 status, $3 tx_hash, $4 reason, $5 detail, $6 now, $7 team_id, $8 environment
update agent_topup_dispatches
set status = $2, tx_hash = $3, reason = $4, detail = $5, updated_at = $6
where id = $1 and team_id = $7 and environment = $8 and status = 'pending'
returning id, team_id, environment, config_id, crossing, funding_mandate_id, network, token_symbol, funding_wallet, target_wallet,
  amount::text, balance_seen::text, status, reason, detail, tx_hash, reference, from_block::text, created_at, updated_at, seq
