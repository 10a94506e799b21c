-- Whether a transaction already proved a refund, for any team: the replay check before any chain work
-- (a transaction proves one refund anywhere; refunds are unique on network and hash). Returns one row or none.
-- $1 network, $2 tx_hash
select id from refunds where network = $1 and tx_hash = $2
