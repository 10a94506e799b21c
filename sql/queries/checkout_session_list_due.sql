-- Work for the settlement sweeper, across every tenant (it is the service's own background job, not a
-- request): open sessions whose time to live has passed, and submitted ones due to be verified again,
-- the longest unchecked first.
-- Waiting sessions are CLAIMED here: marked as checked now, under skip-locked row locks, so instances
-- sweeping at the same moment share the work instead of each asking the chain about every session.
-- They are checked again after a tenth of their age, at least 5 s and at most 15 s apart: a session
-- paid long after it opened still settles within 15 s of its transaction turning final (the age is the
-- session's, as the submission time is not kept), and a transaction never seen is asked about every
-- 15 s, not every 5 s, for the hour of grace.
-- Open sessions are read unlocked (expiring one is a cheap, idempotent move under its row lock).
-- Returns many (whole rows).
-- $1 now, $2 limit
with claimed as (
  update checkout_sessions s set updated_at = $1
  from (
    select id from checkout_sessions
    where status = 'CONFIRMING'
      and updated_at <= $1::timestamptz - least(greatest(($1::timestamptz - created_at) / 10, interval '5 seconds'), interval '15 seconds')
    order by updated_at
    limit $2
    for update skip locked
  ) due
  where s.id = due.id
  returning s.*
)
(select * from checkout_sessions
 where status = 'PENDING' and expires_at <= $1 order by expires_at limit $2)
union all
(select * from claimed)
