-- Locks one invoice of the tenant for the rest of the transaction: every change to an invoice (edit, issue,
-- payment, credit note, refund, void, overdue) takes this lock first. Returns one row or none.
-- $1 team_id, $2 environment, $3 id
select * from invoices where team_id = $1 and environment = $2 and id = $3 for update
