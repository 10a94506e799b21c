-- One page of the tenant's top-up configurations, newest first. Returns many.
-- $1 team_id, $2 environment, $3 before_seq (null: from the newest), $4 limit
select id, team_id, environment, network, token_symbol, target_wallet, min_balance_threshold::text, topup_amount::text, enabled, armed,
  crossing, created_at, updated_at, seq
from agent_topup_configs
where team_id = $1 and environment = $2 and ($3::int8 is null or seq < $3::int8)
order by seq desc
limit $4
