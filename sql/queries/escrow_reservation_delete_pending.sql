-- Deletes a pending reservation the chain never took (the reserve was refused, or its consent expired unsent), so
-- its nonce may be reserved again. Returns none.
-- $1 id, $2 team_id, $3 environment
delete from escrow_reservations where id = $1 and team_id = $2 and environment = $3 and status = 'pending'
