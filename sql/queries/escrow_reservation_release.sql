-- Releases a claim whose call did not happen (the chain refused it): the reservation stays in its status, and what
-- the claim noted for a status it never reached is cleared. Returns none.
-- $1 id, $2 now, $3 team_id, $4 environment
update escrow_reservations
set pending_action = null, pending_since = null, updated_at = $2,
  dispute_reason = case when status = 'disputed' then dispute_reason end,
  disputed_via = case when status = 'disputed' then disputed_via end,
  capture_proof_id = case when status = 'captured' then capture_proof_id end
where id = $1 and team_id = $3 and environment = $4
