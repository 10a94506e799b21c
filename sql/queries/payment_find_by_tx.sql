-- Whether a transaction already proved a payment, for any team: the replay check before any chain
-- work. Returns many (one row per transfer used).
-- $1 network, $2 tx_hash
select id, checkout_session_id, invoice_id, team_id, environment, transfer_index from payments where network = $1 and tx_hash = $2
