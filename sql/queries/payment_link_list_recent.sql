-- The tenant's most recent payment links, newest first. Returns many.
-- $1 team_id, $2 environment, $3 limit
select * from payment_links where team_id = $1 and environment = $2 order by seq desc limit $3
