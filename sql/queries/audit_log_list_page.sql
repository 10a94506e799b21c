-- One page of the audit log, newest first, with optional exact-match filters. Returns many.
-- $1 team_id, $2 environment, $3 before_seq (null: from the newest), $4 limit,
-- $5 action, $6 resource_type, $7 resource_id, $8 actor_id (each null: no filter)
select id, actor_kind, actor_id, action, resource_type, resource_id, request_id, details, created_at, seq,
  chain_seq, prev_hash, hash
from audit_log
where team_id = $1 and environment = $2
  and ($3::int8 is null or seq < $3::int8)
  and ($5::text is null or action = $5::text)
  and ($6::text is null or resource_type = $6::text)
  and ($7::text is null or resource_id = $7::text)
  and ($8::text is null or actor_id = $8::text)
order by seq desc
limit $4
