-- Changes an endpoint; each null parameter keeps its field. Enabling clears the disabled state; disabling
-- by hand records why. Returns one row or none.
-- $1 team_id, $2 environment, $3 id, $4 url, $5 description (null: keep; '' clears), $6 event_types (text[]),
-- $7 enabled, $8 now
update webhook_endpoints
set url = coalesce($4::text, url),
    description = case when $5::text is null then description else nullif($5::text, '') end,
    event_types = coalesce($6::text[], event_types),
    enabled = coalesce($7::boolean, enabled),
    disabled_reason = case when $7::boolean is true then null when $7::boolean is false and enabled then 'disabled by an operator' else disabled_reason end,
    disabled_at = case when $7::boolean is true then null when $7::boolean is false and enabled then $8::timestamptz else disabled_at end,
    updated_at = $8::timestamptz
where team_id = $1 and environment = $2 and id = $3
returning id, url, description, event_types, secret_sealed, previous_secret_sealed, previous_expires_at, enabled, disabled_reason, disabled_at, created_at, updated_at, seq
