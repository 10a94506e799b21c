-- The refusals in a row of a configuration (the backoff's step). Returns one row, or none when it is gone.
-- $1 id
select refusals from agent_topup_configs where id = $1
