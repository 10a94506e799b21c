-- Pending dispatches claimed before a cutoff, every tenant, oldest first: sends whose outcome recovery looks up.
-- Returns many.
-- $1 cutoff, $2 limit
select id, team_id, environment, config_id, crossing, funding_mandate_id, network, token_symbol, funding_wallet, target_wallet,
  amount::text, balance_seen::text, status, reason, detail, tx_hash, reference, from_block::text, operator_nonce::text,
  last_valid_height::text, created_at, updated_at, seq
from agent_topup_dispatches
where status = 'pending' and created_at < $1
order by created_at
limit $2
