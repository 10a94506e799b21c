-- Ends a pending chain operation: succeeded (tx hash, payment) or failed (reason, detail). Only a pending row
-- changes, so two finishers never both record it. Returns one row or none.
-- $1 team_id, $2 environment, $3 id, $4 status, $5 tx_hash, $6 payment_id, $7 failure_reason, $8 failure_detail, $9 now
update subscription_charges set status = $4, tx_hash = $5, payment_id = $6, failure_reason = $7, failure_detail = $8, completed_at = $9
where team_id = $1 and environment = $2 and id = $3 and status = 'pending'
returning *
