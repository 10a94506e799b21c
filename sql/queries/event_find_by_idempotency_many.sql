-- Stored outcomes of earlier events or consumes with these idempotency keys (retries). Returns many rows.
-- $1 team_id[], $2 environment[], $3 source[], $4 idempotency_key[] (parallel arrays)
select e.team_id, e.environment, e.source, e.idempotency_key, e.id, e.outcome, e.company_id, e.user_id
from events e
join unnest($1::text[], $2::text[], $3::text[], $4::text[]) as k (team_id, environment, source, idempotency_key)
  on e.team_id = k.team_id and e.environment = k.environment and e.source = k.source and e.idempotency_key = k.idempotency_key
