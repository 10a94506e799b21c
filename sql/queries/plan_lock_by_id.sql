-- Locks a plan row for the rest of the transaction. Returns one row or none.
-- $1 team_id, $2 environment, $3 id
select id, name, tier, description, kind, trial_days, archived_at
from plans
where team_id = $1 and environment = $2 and id = $3
for update
