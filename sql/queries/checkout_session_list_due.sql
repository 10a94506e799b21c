-- Work for the settlement sweeper, across every tenant (it is the service's own background job, not a
-- request): open sessions whose time to live has passed, and submitted ones to verify again.
-- Returns many: id, team_id, environment, status.
-- $1 now, $2 limit
(select id, team_id, environment, status from checkout_sessions
 where status = 'PENDING' and expires_at <= $1 order by expires_at limit $2)
union all
(select id, team_id, environment, status from checkout_sessions
 where status = 'CONFIRMING' order by updated_at limit $2)
