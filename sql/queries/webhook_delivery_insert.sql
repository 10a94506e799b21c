-- A new delivery of a message to an endpoint (a replay). Returns one row.
-- $1 id, $2 team_id, $3 environment, $4 endpoint_id, $5 message_id, $6 now
insert into webhook_deliveries (id, team_id, environment, endpoint_id, message_id, next_attempt_at, created_at, updated_at)
values ($1, $2, $3, $4, $5, $6, $6, $6)
returning id
