-- One delivery of a tenant. Returns one row or none.
-- $1 team_id, $2 environment, $3 id
select d.id, d.endpoint_id, d.message_id, m.event_type, d.status, d.attempts, d.last_status_code, d.last_latency_ms, d.last_error, d.next_attempt_at, d.first_attempt_at, d.delivered_at, d.created_at, d.updated_at, d.seq
from webhook_deliveries d
join webhook_messages m on m.id = d.message_id
where d.team_id = $1 and d.environment = $2 and d.id = $3
