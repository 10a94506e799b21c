-- Takes over a pending reserve whose call was sent before $2 and never recorded (its answer was lost), for a client's
-- retry of the same consent: `pending_since` moves to $3, so neither another retry nor the reconcile job sends it
-- meanwhile. A reserve claimed since $2 is still in flight and is not taken. Returns the row, or none.
-- $1 id, $2 sent before, $3 now, $4 team_id, $5 environment
update escrow_reservations
set pending_since = $3, updated_at = $3
where id = $1 and team_id = $4 and environment = $5
  and status = 'pending' and pending_action = 'reserve' and pending_since < $2
returning *
