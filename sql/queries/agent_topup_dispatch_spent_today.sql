-- What a tenant's network dispatched since the UTC day began, failed dispatches left out. Returns one row.
-- $1 team_id, $2 environment, $3 network, $4 day_start
select coalesce(sum(amount), 0)::text as spent
from agent_topup_dispatches
where team_id = $1 and environment = $2 and network = $3 and status <> 'failed' and created_at >= $4
