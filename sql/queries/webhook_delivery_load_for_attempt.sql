-- What an attempt needs: the delivery, its message's body and its endpoint (with the secrets). Returns one
-- row, or none when the delivery (or its endpoint, by cascade) was deleted.
-- $1 team_id, $2 environment, $3 delivery id
select d.id, d.status, d.attempts, d.first_attempt_at, d.message_id, m.body,
       e.id as endpoint_id, e.url, e.enabled, e.secret_sealed, e.previous_secret_sealed, e.previous_expires_at
from webhook_deliveries d
join webhook_messages m on m.id = d.message_id
join webhook_endpoints e on e.id = d.endpoint_id
where d.team_id = $1 and d.environment = $2 and d.id = $3
