-- Deletes a pending reservation the chain never took (the reserve was refused, or its consent expired unsent), so
-- its nonce may be reserved again. Returns none.
-- $1 id
delete from escrow_reservations where id = $1 and status = 'pending'
