-- DRAFT -> ISSUED with its number and dates (PAID at once when nothing is owed). Returns the row, none when not a draft.
-- $1 team_id, $2 environment, $3 id, $4 sequence, $5 number, $6 issued_at, $7 due_at
update invoices
set status = case when total = 0 then 'PAID' else 'ISSUED' end,
    paid_at = case when total = 0 then $6::timestamptz end,
    sequence = $4, number = $5, issued_at = $6, due_at = $7, updated_at = $6
where team_id = $1 and environment = $2 and id = $3 and status = 'DRAFT'
returning *
