-- Writes a message and its deliveries (one per endpoint) in one statement. Returns many (the deliveries).
-- $1 message id, $2 team_id, $3 environment, $4 event type, $5 body, $6 created_at,
-- $7 delivery ids (text[]), $8 endpoint ids (text[], same order)
with message as (
  insert into webhook_messages (id, team_id, environment, event_type, body, created_at)
  values ($1, $2, $3, $4, $5, $6)
  returning id
)
insert into webhook_deliveries (id, team_id, environment, endpoint_id, message_id, next_attempt_at, created_at, updated_at)
select d.id, $2, $3, d.endpoint_id, message.id, $6, $6, $6
from message, unnest($7::text[], $8::text[]) as d (id, endpoint_id)
returning id, endpoint_id
