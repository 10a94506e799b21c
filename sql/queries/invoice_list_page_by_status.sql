-- One page of the tenant's invoices in one status, newest first (GET /invoices?status=; index invoices_status_page).
-- A statement of its own rather than "$5 is null or status = $5", so its plan always uses the status index. Returns many.
-- $1 team_id, $2 environment, $3 before_seq (null: from the newest), $4 limit, $5 status
select * from invoices
where team_id = $1 and environment = $2 and status = $5
  and ($3::int8 is null or seq < $3::int8)
order by seq desc
limit $4
