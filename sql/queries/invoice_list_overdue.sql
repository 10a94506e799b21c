-- Issued invoices whose due date has passed, oldest due first, across tenants (the overdue job). Returns many.
-- $1 now, $2 limit
select team_id as "teamId", environment, id from invoices where status = 'ISSUED' and due_at <= $1 order by due_at limit $2
