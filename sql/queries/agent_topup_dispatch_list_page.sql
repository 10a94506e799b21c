-- One page of the tenant's top-up dispatches, newest first, optionally of one configuration. Returns many.
-- $1 team_id, $2 environment, $3 before_seq (null: from the newest), $4 limit, $5 config_id (null: all)
select id, team_id, environment, config_id, crossing, funding_mandate_id, network, token_symbol, funding_wallet, target_wallet,
  amount::text, balance_seen::text, status, reason, detail, tx_hash, reference, from_block::text, created_at, updated_at, seq
from agent_topup_dispatches
where team_id = $1 and environment = $2 and ($3::int8 is null or seq < $3::int8) and ($5::text is null or config_id = $5::text)
order by seq desc
limit $4
