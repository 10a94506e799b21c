-- Deletes up to $2 stored refusals (events not accepted) sent before $1, oldest first; rows another
-- transaction holds are skipped, so a prune never waits on a batch. Returns one row: n, how many it deleted.
-- $1 sent before (timestamptz), $2 at most this many rows
with doomed as (
  select id from events where outcome <> 'accepted' and sent_at < $1 order by sent_at limit $2 for update skip locked
), deleted as (
  delete from events e using doomed d where e.id = d.id returning 1
)
select count(*)::int as n from deleted
