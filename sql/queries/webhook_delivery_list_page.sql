-- One page of an endpoint's deliveries, newest first, optionally of one status. Returns many.
-- $1 team_id, $2 environment, $3 endpoint_id, $4 before_seq (null: from the newest), $5 limit, $6 status (null: all)
select d.id, d.endpoint_id, d.message_id, m.event_type, d.status, d.attempts, d.last_status_code, d.last_latency_ms, d.last_error, d.next_attempt_at, d.first_attempt_at, d.delivered_at, d.created_at, d.updated_at, d.seq
from webhook_deliveries d
join webhook_messages m on m.id = d.message_id
where d.team_id = $1 and d.environment = $2 and d.endpoint_id = $3
  and ($4::int8 is null or d.seq < $4::int8)
  and ($6::text is null or d.status = $6::text)
order by d.seq desc
limit $5
