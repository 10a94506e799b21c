-- Deletes up to $2 stored refusals (events not accepted) sent before $1, oldest first; rows another
-- transaction holds are skipped, so a prune never waits on a batch. Returns none (the command's count).
-- $1 sent before (timestamptz), $2 at most this many rows
delete from events
where id in (
  select id from events where outcome <> 'accepted' and sent_at < $1 order by sent_at limit $2 for update skip locked
)
