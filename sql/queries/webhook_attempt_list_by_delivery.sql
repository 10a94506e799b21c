-- A delivery's attempts, first first. Returns many.
-- $1 team_id, $2 environment, $3 delivery_id
select attempt, claimed_at, finished_at, status_code, latency_ms, error, response_excerpt
from webhook_attempts
where team_id = $1 and environment = $2 and delivery_id = $3
order by attempt
