-- Releases a claim whose call did not happen (the chain refused it): the reservation stays in its status. Returns none.
-- $1 id, $2 now
update escrow_reservations set pending_action = null, pending_since = null, updated_at = $2 where id = $1
