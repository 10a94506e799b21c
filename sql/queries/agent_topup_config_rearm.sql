-- Arms the configurations a tick saw at or above their threshold (the next fall below it is a new crossing), and
-- ends their run of refusals.
-- Returns nothing.
-- $1 ids
update agent_topup_configs set armed = true, rearm_at = null, refusals = 0
where id = any($1::text[]) and enabled and not armed
