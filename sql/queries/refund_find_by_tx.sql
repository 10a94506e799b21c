-- Whether a transaction already proved a refund, for any team (one transaction proves one thing, anywhere): the
-- refund replay check before any chain work, and the check that refuses a payment proof with a refund's hash.
-- Returns one row or none.
-- $1 network, $2 tx_hash
select id from refunds where network = $1 and tx_hash = $2
