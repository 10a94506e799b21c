-- Creates a webhook endpoint. Returns one row.
-- $1 id, $2 team_id, $3 environment, $4 url, $5 description, $6 event_types (text[]), $7 secret_sealed, $8 created_at
insert into webhook_endpoints (id, team_id, environment, url, description, event_types, secret_sealed, created_at, updated_at)
values ($1, $2, $3, $4, $5, $6, $7, $8, $8)
returning id, url, description, event_types, secret_sealed, previous_secret_sealed, previous_expires_at, enabled, disabled_reason, disabled_at, created_at, updated_at, seq
