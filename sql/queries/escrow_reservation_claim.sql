-- Claims one reservation for an operator call: marks `pending_action` when the reservation is in `$3` status and no
-- other call holds it. Returns the row, or none when another call holds it or its status moved.
-- $1 id, $2 pending_action, $3 expected status, $4 now
update escrow_reservations
set pending_action = $2, pending_since = $4, updated_at = $4
where id = $1 and status = $3 and pending_action is null
returning *
