-- One page of the tenant's invoices whose number, customer email or customer wallet contains the text, newest first
-- (GET /invoices?q=). search_text is lower(number, email, wallet) with a trigram index; the pattern (the text with
-- its % _ \ escaped by the caller, between two %) is lower-cased here by the same lower(). Returns many.
-- $1 team_id, $2 environment, $3 before_seq (null: from the newest), $4 limit, $5 LIKE pattern, $6 status (null: any)
select * from invoices
where team_id = $1 and environment = $2
  and search_text like lower($5::text)
  and ($6::text is null or status = $6::text)
  and ($3::int8 is null or seq < $3::int8)
order by seq desc
limit $4
