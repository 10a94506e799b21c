-- Claims one reservation for an operator call: marks `pending_action` when the reservation is in `$3` status and no
-- other call holds it, with what the call records beside its status (so a call whose answer is lost is completed
-- with them). Returns the row, or none when another call holds it or its status moved.
-- $1 id, $2 pending_action, $3 expected status, $4 now, $5 jsonb {dispute_reason?, disputed_via?, capture_proof_id?},
-- $6 team_id, $7 environment
update escrow_reservations
set pending_action = $2, pending_since = $4, updated_at = $4,
  dispute_reason = coalesce($5::jsonb ->> 'dispute_reason', dispute_reason),
  disputed_via = coalesce($5::jsonb ->> 'disputed_via', disputed_via),
  capture_proof_id = coalesce($5::jsonb ->> 'capture_proof_id', capture_proof_id)
where id = $1 and team_id = $6 and environment = $7 and status = $3 and pending_action is null
returning *
