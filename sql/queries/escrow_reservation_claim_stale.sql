-- Claims up to $3 reservations whose operator call was sent before $1 and not recorded (its answer was lost), for
-- the reconcile job: their `pending_since` moves to $2, so another reconciler skips them until they are stale again.
-- Returns the claimed rows.
-- $1 sent before, $2 now, $3 limit
update escrow_reservations e
set pending_since = $2
from (
  select id from escrow_reservations
  where pending_action is not null and pending_since < $1
  order by pending_since
  limit $3
  for update skip locked
) stale
where e.id = stale.id
returning e.*
