-- Moves a locked checkout session to its next state. The unique index on (network, tx_hash) of PAID
-- sessions backs the payments' own key: a transaction pays one session. Returns one row.
-- $1 team_id, $2 environment, $3 id, $4 status, $5 tx_hash, $6 failure_reason, $7 failure_detail,
-- $8 paid_at, $9 customer_wallet (null: keep), $10 updated_at
update checkout_sessions
set status = $4, tx_hash = $5, failure_reason = $6, failure_detail = $7, paid_at = $8,
    customer_wallet = coalesce(customer_wallet, $9), updated_at = $10
where team_id = $1 and environment = $2 and id = $3
returning *
