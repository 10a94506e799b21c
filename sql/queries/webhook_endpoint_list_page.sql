-- One page of a tenant's endpoints, newest first. Returns many.
-- $1 team_id, $2 environment, $3 before_seq (null: from the newest), $4 limit
select id, url, description, event_types, secret_sealed, previous_secret_sealed, previous_expires_at, enabled, disabled_reason, disabled_at, created_at, updated_at, seq
from webhook_endpoints
where team_id = $1 and environment = $2 and ($3::int8 is null or seq < $3::int8)
order by seq desc
limit $4
