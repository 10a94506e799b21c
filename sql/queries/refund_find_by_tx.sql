-- Whether a transaction already proved a refund, for any team: a payment proof is refused with a hash that
-- did (one transaction proves one thing, anywhere). Returns one row or none.
-- $1 network, $2 tx_hash
select id from refunds where network = $1 and tx_hash = $2
