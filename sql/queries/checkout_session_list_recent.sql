-- The tenant's most recent checkout sessions, newest first. Returns many.
-- $1 team_id, $2 environment, $3 limit
select * from checkout_sessions where team_id = $1 and environment = $2 order by seq desc limit $3
