-- One endpoint of a tenant, row-locked until the caller's transaction ends, so concurrent secret
-- rotations apply one after the other (each keeps the secret the one before it made). Returns one row or none.
-- $1 team_id, $2 environment, $3 id
select id, url, description, event_types, secret_sealed, previous_secret_sealed, previous_expires_at, enabled, disabled_reason, disabled_at, created_at, updated_at, seq
from webhook_endpoints
where team_id = $1 and environment = $2 and id = $3
for update
