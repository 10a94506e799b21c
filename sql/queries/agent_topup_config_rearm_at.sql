-- A crossing refused for the daily cap is tried again at `rearm_at` (the next UTC midnight), if the balance is still
-- below the threshold then. Returns nothing.
-- $1 id, $2 rearm_at
update agent_topup_configs set rearm_at = $2 where id = $1
