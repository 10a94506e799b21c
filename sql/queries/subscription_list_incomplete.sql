-- Activations reserved before $1 and not finished, across tenants (the reconciliation job). Returns many rows.
-- $1 created before, $2 limit
select * from subscriptions where status = 'INCOMPLETE' and created_at < $1 order by created_at limit $2
