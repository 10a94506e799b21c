-- Work for the settlement sweeper, across every tenant (it is the service's own background job, not a
-- request): open sessions whose time to live has passed, and submitted ones to verify again, the
-- longest unchecked first. Rows are read unlocked; each move re-checks the state under the row lock.
-- Returns many (whole rows).
-- $1 now, $2 limit
(select * from checkout_sessions
 where status = 'PENDING' and expires_at <= $1 order by expires_at limit $2)
union all
(select * from checkout_sessions
 where status = 'CONFIRMING' order by updated_at limit $2)
