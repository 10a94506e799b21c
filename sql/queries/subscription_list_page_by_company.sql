-- One page of one company's subscriptions, in one status or any, newest first (index subscriptions_company_page:
-- a company has few, so the status is a filter on them). Returns many.
-- $1 team_id, $2 environment, $3 before_seq (null: from the newest), $4 limit, $5 company_id, $6 status (null: any)
select * from subscriptions
where team_id = $1 and environment = $2 and company_id = $5
  and ($6::text is null or status = $6::text)
  and ($3::int8 is null or seq < $3::int8)
order by seq desc
limit $4
