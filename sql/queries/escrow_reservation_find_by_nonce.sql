-- The reservation of a request nonce on a network's escrow contract, whoever's it is. Returns one row or none.
-- $1 network, $2 contract (lowercase), $3 request_nonce
select * from escrow_reservations where network = $1 and contract = $2 and request_nonce = $3
