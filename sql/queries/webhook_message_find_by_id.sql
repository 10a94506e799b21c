-- One message of a tenant. Returns one row or none.
-- $1 team_id, $2 environment, $3 id
select id, event_type, body, created_at
from webhook_messages
where team_id = $1 and environment = $2 and id = $3
