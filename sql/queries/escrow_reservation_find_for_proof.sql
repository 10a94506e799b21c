-- The tenant's authorized reservation of a request nonce with no call in flight whose payer named this proof's
-- provider as the delivery provider, for early capture on a proof: one made for a company only on a proof naming
-- that company. Returns one row or none.
-- $1 team_id, $2 environment, $3 request_nonce, $4 the proof's provider, $5 the proof's company_id (null: none)
select * from escrow_reservations
where team_id = $1 and environment = $2 and request_nonce = $3 and status = 'authorized' and pending_action is null
  and delivery_provider = $4::text
  and (company_id is null or company_id = $5::text)
order by seq
limit 1
