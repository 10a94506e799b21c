-- Pending chain operations older than $1, across tenants: their answer was lost (the reconciliation job
-- looks each up by reference). Returns many rows.
-- $1 created before, $2 limit
select * from subscription_charges where status = 'pending' and created_at < $1 order by created_at limit $2
