-- One page of one company's invoices, in one status or any, whose number, customer email or customer wallet
-- contains the text or any, newest first (GET /dashboard/invoices?companyId=; index invoices_company_page: a
-- company has few invoices, so the status and the text are filters on them). Returns many.
-- $1 team_id, $2 environment, $3 before_seq (null: from the newest), $4 limit, $5 company_id, $6 status (null: any),
-- $7 LIKE pattern (null: any; the text with its % _ \ escaped by the caller, between two %)
select * from invoices
where team_id = $1 and environment = $2 and company_id = $5
  and ($6::text is null or status = $6::text)
  and ($7::text is null or search_text like lower($7::text))
  and ($3::int8 is null or seq < $3::int8)
order by seq desc
limit $4
