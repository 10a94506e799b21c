-- A pending delivery whose endpoint was disabled is not sent: marked skipped. Returns none.
-- $1 team_id, $2 environment, $3 id, $4 reason, $5 now
update webhook_deliveries
set status = 'skipped', last_error = $4, next_attempt_at = null, updated_at = $5
where team_id = $1 and environment = $2 and id = $3 and status = 'pending'
