-- Records what the chain says of a reservation: its status, the transaction of the change into it, and clears the
-- pending call. Only moves a row still in `$3` status (the caller's read), so a concurrent record never goes back.
-- Returns the row, or none when it moved meanwhile.
-- $1 id, $2 the change (jsonb: status, tx, at, captured_early, capture_proof_id, dispute_reason, disputed_via),
-- $3 expected status, $4 team_id, $5 environment
update escrow_reservations e
set status = c.status,
  pending_action = null,
  pending_since = null,
  updated_at = c.at,
  authorize_tx = case when c.status = 'authorized' then coalesce(c.tx, e.authorize_tx) else e.authorize_tx end,
  authorized_at = case when c.status = 'authorized' then coalesce(e.authorized_at, c.at) else e.authorized_at end,
  capture_tx = case when c.status = 'captured' then coalesce(c.tx, e.capture_tx) else e.capture_tx end,
  captured_at = case when c.status = 'captured' then coalesce(e.captured_at, c.at) else e.captured_at end,
  captured_early = e.captured_early or coalesce(c.captured_early, false),
  capture_proof_id = coalesce(c.capture_proof_id, e.capture_proof_id),
  dispute_tx = case when c.status = 'disputed' then coalesce(c.tx, e.dispute_tx) else e.dispute_tx end,
  disputed_at = case when c.status = 'disputed' then coalesce(e.disputed_at, c.at) else e.disputed_at end,
  dispute_reason = coalesce(c.dispute_reason, e.dispute_reason),
  disputed_via = coalesce(c.disputed_via, e.disputed_via),
  refund_tx = case when c.status = 'refunded' then coalesce(c.tx, e.refund_tx) else e.refund_tx end,
  refunded_at = case when c.status = 'refunded' then coalesce(e.refunded_at, c.at) else e.refunded_at end
from jsonb_to_record($2::jsonb) as c(
  status text, tx text, at timestamptz, captured_early boolean, capture_proof_id text, dispute_reason text, disputed_via text
)
where e.id = $1 and e.team_id = $4 and e.environment = $5 and e.status = $3
returning e.*
