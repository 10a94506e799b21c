-- Deletes an endpoint with its deliveries and their attempts (cascade). Returns one row or none.
-- $1 team_id, $2 environment, $3 id
delete from webhook_endpoints
where team_id = $1 and environment = $2 and id = $3
returning id, url, description, event_types, secret_sealed, previous_secret_sealed, previous_expires_at, enabled, disabled_reason, disabled_at, created_at, updated_at, seq
