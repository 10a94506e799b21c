-- A confirmed top-up ends a run of refusals: the next refusal's backoff starts from its first step. Returns nothing.
-- $1 id, $2 team_id, $3 environment
update agent_topup_configs set refusals = 0 where id = $1 and team_id = $2 and environment = $3 and refusals <> 0
