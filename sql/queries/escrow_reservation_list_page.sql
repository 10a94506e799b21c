-- One page of the tenant's reservations, newest first, optionally of one status and one company. Returns many.
-- $1 team_id, $2 environment, $3 before_seq (null: from the newest), $4 limit, $5 status (null: all),
-- $6 company_id (null: all)
select * from escrow_reservations
where team_id = $1 and environment = $2
  and ($3::int8 is null or seq < $3::int8)
  and ($5::text is null or status = $5::text)
  and ($6::text is null or company_id = $6::text)
order by seq desc
limit $4
