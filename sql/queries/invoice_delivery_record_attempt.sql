-- Records one attempt of a PENDING delivery: attempts + 1, the new status, the error of this attempt (null
-- when it was sent), sent_at when SENT. Returns one row, or none when the delivery was no longer PENDING.
-- $1 team_id, $2 environment, $3 id, $4 status, $5 last_error, $6 now
update invoice_deliveries
set attempts = attempts + 1, status = $4, last_error = $5,
    sent_at = case when $4 = 'SENT' then $6::timestamptz end, updated_at = $6
where team_id = $1 and environment = $2 and id = $3 and status = 'PENDING'
returning *
