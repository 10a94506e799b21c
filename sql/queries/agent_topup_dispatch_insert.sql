-- Records a dispatch. Returns one row.
-- $1 the dispatch {id, team_id, environment, config_id, crossing, funding_mandate_id, network, token_symbol,
-- funding_wallet, target_wallet, amount, balance_seen, status, reason, detail, reference, from_block, created_at} (jsonb)
insert into agent_topup_dispatches (id, team_id, environment, config_id, crossing, funding_mandate_id, network, token_symbol, funding_wallet,
  target_wallet, amount, balance_seen, status, reason, detail, reference, from_block, created_at, updated_at)
select id, team_id, environment, config_id, crossing, funding_mandate_id, network, token_symbol, funding_wallet,
  target_wallet, amount, balance_seen, status, reason, detail, reference, from_block, created_at, created_at
from jsonb_populate_record(null::agent_topup_dispatches, $1::jsonb)
returning id, team_id, environment, config_id, crossing, funding_mandate_id, network, token_symbol, funding_wallet, target_wallet,
  amount::text, balance_seen::text, status, reason, detail, tx_hash, reference, from_block::text, created_at, updated_at, seq
