-- A refused crossing is tried again at `rearm_at`, if the balance is still below the threshold then: the next UTC
-- midnight for the daily cap, a backoff for any other refusal (docs/agents.md#retries). Counts the refusal in a
-- row. Returns the row's refusals in a row, or none when the configuration is gone.
-- $1 id, $2 rearm_at, $3 team_id, $4 environment
update agent_topup_configs set rearm_at = $2, refusals = refusals + 1 where id = $1 and team_id = $3 and environment = $4
returning refusals
