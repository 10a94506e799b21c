-- The refusals in a row of a configuration (the backoff's step). Returns one row, or none when it is gone.
-- $1 id, $2 team_id, $3 environment
select refusals from agent_topup_configs where id = $1 and team_id = $2 and environment = $3
