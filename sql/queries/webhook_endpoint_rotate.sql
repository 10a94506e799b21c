-- Makes a new secret current and keeps the previous one signing until previous_expires_at (null: at once
-- only the new one). Returns one row or none.
-- $1 team_id, $2 environment, $3 id, $4 secret_sealed, $5 previous_secret_sealed (null: none),
-- $6 previous_expires_at (null: none), $7 now
update webhook_endpoints
set secret_sealed = $4, previous_secret_sealed = $5, previous_expires_at = $6, updated_at = $7
where team_id = $1 and environment = $2 and id = $3
returning id, url, description, event_types, secret_sealed, previous_secret_sealed, previous_expires_at, enabled, disabled_reason, disabled_at, created_at, updated_at, seq
