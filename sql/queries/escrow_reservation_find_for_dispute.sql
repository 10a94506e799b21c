-- The reservations of a request nonce a company's embed token may dispute: the tenant's, of that company, on the
-- current escrow contract of their network (`$5`: "network:contract" pairs), on one network when $2 is given, of one
-- payee when $7 is. At most
-- two rows are returned: more than one means the nonce is ambiguous. Returns many.
-- $1 request_nonce, $2 network (null: any), $3 team_id, $4 environment, $5 text[] current "network:contract" pairs,
-- $6 company_id, $7 payee (lowercase; null: any)
select * from escrow_reservations
where request_nonce = $1
  and ($2::text is null or network = $2::text)
  and team_id = $3 and environment = $4
  and network || ':' || contract = any($5::text[])
  and company_id = $6
  and ($7::text is null or payee = $7::text)
order by seq
limit 2
