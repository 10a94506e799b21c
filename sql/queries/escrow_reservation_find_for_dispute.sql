-- The reservations of a request nonce, for the public dispute route: on one network when $2 is given, of one tenant
-- when $3 and $4 are. At most two rows are returned: more than one means the nonce is ambiguous. Returns many.
-- $1 request_nonce, $2 network (null: any), $3 team_id (null: any), $4 environment (null: any)
select * from escrow_reservations
where request_nonce = $1
  and ($2::text is null or network = $2::text)
  and ($3::text is null or team_id = $3::text)
  and ($4::text is null or environment = $4::text)
order by seq
limit 2
