-- What an on-chain transaction already proved, for any team: 'payment' (a checkout session's or an invoice's),
-- 'refund', or no row. Run after chain_transaction_lock, as its own statement, so it sees every writer that held
-- the lock before (READ COMMITTED: a statement's snapshot is taken when it starts). Returns one row or none.
-- $1 network, $2 tx_hash
select 'payment' as proved from payments where network = $1 and tx_hash = $2
union all
select 'refund' as proved from refunds where network = $1 and tx_hash = $2
limit 1
