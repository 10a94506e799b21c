-- A refused crossing is tried again at `rearm_at`, if the balance is still below the threshold then: the next UTC
-- midnight for the daily cap, a backoff for any other refusal (docs/agents.md#retries). Counts the refusal in a
-- row. Returns the row's refusals in a row, or none when the configuration is gone.
-- $1 id, $2 rearm_at
update agent_topup_configs set rearm_at = $2, refusals = refusals + 1 where id = $1
returning refusals
