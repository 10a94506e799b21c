-- Records a finished attempt on its delivery: its count, last outcome, the new status and next attempt.
-- Returns one row (first_attempt_at) or none.
-- $1 team_id, $2 environment, $3 id, $4 attempt, $5 status, $6 status code, $7 latency ms, $8 error,
-- $9 next_attempt_at, $10 now (when the attempt was made)
update webhook_deliveries
set attempts = greatest(attempts, $4), status = $5, last_status_code = $6, last_latency_ms = $7, last_error = $8,
    next_attempt_at = $9, first_attempt_at = coalesce(first_attempt_at, $10),
    delivered_at = case when $5 = 'delivered' then $10 else delivered_at end, updated_at = $10
where team_id = $1 and environment = $2 and id = $3
returning first_attempt_at
