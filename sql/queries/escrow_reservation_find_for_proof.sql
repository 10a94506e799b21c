-- The tenant's authorized reservation of a request nonce with no call in flight, for early capture on a proof.
-- Returns one row or none.
-- $1 team_id, $2 environment, $3 request_nonce
select * from escrow_reservations
where team_id = $1 and environment = $2 and request_nonce = $3 and status = 'authorized' and pending_action is null
order by seq
limit 1
