-- Claims up to $2 authorized reservations whose window ended by $1 for the capture job (pending_action capture),
-- skipping rows another worker has locked: two workers never claim one reservation. Returns the claimed rows.
-- $1 now, $2 limit
update escrow_reservations e
set pending_action = 'capture', pending_since = $1, updated_at = $1
from (
  select id from escrow_reservations
  where status = 'authorized' and pending_action is null and window_ends_at <= $1
  order by window_ends_at
  limit $2
  for update skip locked
) due
where e.id = due.id
returning e.*
