-- Marks a waiting session as checked now, so the sweeper's oldest-checked-first order visits every
-- waiting session in turn. Returns none.
-- $1 team_id, $2 environment, $3 id, $4 now
update checkout_sessions set updated_at = $4 where team_id = $1 and environment = $2 and id = $3
