-- Arms the configurations a tick saw at or above their threshold (the next fall below it is a new crossing).
-- Returns nothing.
-- $1 ids
update agent_topup_configs set armed = true, rearm_at = null
where id = any($1::text[]) and enabled and not armed
