-- The reservation of a payee's request nonce on a network's escrow contract. Returns one row or none.
-- $1 network, $2 contract (lowercase), $3 payee (lowercase), $4 request_nonce
select * from escrow_reservations where network = $1 and contract = $2 and payee = $3 and request_nonce = $4
