-- One page of the tenant's subscriptions in one status, newest first (index subscriptions_status_page). Returns many.
-- $1 team_id, $2 environment, $3 before_seq (null: from the newest), $4 limit, $5 status
select * from subscriptions
where team_id = $1 and environment = $2 and status = $5
  and ($3::int8 is null or seq < $3::int8)
order by seq desc
limit $4
