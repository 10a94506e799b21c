-- The monitor's page: enabled top-up configurations of one network, every tenant, in id order after a cursor.
-- Returns many.
-- `armed` also when a crossing refused for the daily cap may be tried again (rearm_at passed).
-- $1 network, $2 after_id ('' from the start), $3 limit, $4 now
select id, team_id, environment, token_symbol, target_wallet, min_balance_threshold::text, topup_amount::text,
  armed or coalesce(rearm_at <= $4, false) as armed
from agent_topup_configs
where network = $1 and enabled and id > $2
order by id
limit $3
