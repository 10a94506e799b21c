-- Records the outcome of a claimed attempt, if this worker still holds the claim. Returns one row or none.
-- $1 team_id, $2 environment, $3 delivery_id, $4 attempt, $5 claim token, $6 finished_at, $7 status code,
-- $8 latency ms, $9 error, $10 response excerpt
update webhook_attempts
set finished_at = $6, status_code = $7, latency_ms = $8, error = $9, response_excerpt = $10
where team_id = $1 and environment = $2 and delivery_id = $3 and attempt = $4 and claim = $5 and finished_at is null
returning attempt
