-- Disables an enabled endpoint, with the reason. Returns one row, or none when it was not enabled (or is gone).
-- $1 team_id, $2 environment, $3 id, $4 reason, $5 now
update webhook_endpoints
set enabled = false, disabled_reason = $4, disabled_at = $5, updated_at = $5
where team_id = $1 and environment = $2 and id = $3 and enabled
returning id, url, description, event_types, secret_sealed, previous_secret_sealed, previous_expires_at, enabled, disabled_reason, disabled_at, created_at, updated_at, seq
