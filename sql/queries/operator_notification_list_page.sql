-- One page of a tenant's notifications about one resource type, newest first. Returns many.
-- $1 team_id, $2 environment, $3 resource_type, $4 before_seq (null: from the newest), $5 limit
select id, kind, resource_type, resource_id, message, details, created_at, seq
from operator_notifications
where team_id = $1 and environment = $2 and resource_type = $3 and ($4::int8 is null or seq < $4::int8)
order by seq desc
limit $5
