-- A subscription's most recent chain operations, newest first (index subscription_charges_of). Returns many.
-- $1 team_id, $2 environment, $3 subscription_id, $4 limit
select * from subscription_charges
where team_id = $1 and environment = $2 and subscription_id = $3
order by created_at desc, id desc
limit $4
