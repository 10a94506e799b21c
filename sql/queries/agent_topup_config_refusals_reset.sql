-- A confirmed top-up ends a run of refusals: the next refusal's backoff starts from its first step. Returns nothing.
-- $1 id
update agent_topup_configs set refusals = 0 where id = $1 and refusals <> 0
