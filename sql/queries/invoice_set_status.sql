-- Moves an invoice to another status, stamping paid_at or voided_at with it. Returns the row.
-- $1 team_id, $2 environment, $3 id, $4 status, $5 now
update invoices
set status = $4,
    paid_at = case when $4 = 'PAID' then coalesce(paid_at, $5) else paid_at end,
    voided_at = case when $4 = 'VOID' then $5 else voided_at end,
    updated_at = $5
where team_id = $1 and environment = $2 and id = $3
returning *
