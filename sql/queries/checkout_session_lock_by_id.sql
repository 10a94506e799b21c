-- One checkout session of the tenant, locked for the caller's transaction: every status change takes
-- this lock first, so a session moves through its states one change at a time. Returns one row or none.
-- $1 team_id, $2 environment, $3 id
select * from checkout_sessions where team_id = $1 and environment = $2 and id = $3 for update
