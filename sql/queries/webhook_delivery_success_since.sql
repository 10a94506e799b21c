-- Whether any delivery to the endpoint succeeded at or after a time (the persistent-failure rule). Returns one row.
-- $1 team_id, $2 environment, $3 endpoint_id, $4 since
select exists (
  select 1 from webhook_deliveries
  where team_id = $1 and environment = $2 and endpoint_id = $3 and status = 'delivered' and delivered_at >= $4
) as succeeded
