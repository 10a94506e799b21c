-- Adds to an invoice's paid, credited and refunded amounts (the CHECK constraints refuse anything past BILLING.md's
-- invariants), sets its network when it has none, and makes an open invoice left owing nothing PAID, in one
-- statement (an open invoice must owe something). Returns the row.
-- $1 team_id, $2 environment, $3 id, $4 paid, $5 credited, $6 refunded, $7 network (null: keep), $8 now
update invoices
set amount_paid = amount_paid + $4::int8, amount_credited = amount_credited + $5::int8,
    amount_refunded = amount_refunded + $6::int8, network = coalesce(network, $7), updated_at = $8,
    status = case when status in ('ISSUED', 'OVERDUE') and total - (amount_paid + $4::int8) - (amount_credited + $5::int8) <= 0
                  then 'PAID' else status end,
    paid_at = case when status in ('ISSUED', 'OVERDUE') and total - (amount_paid + $4::int8) - (amount_credited + $5::int8) <= 0
                   then $8 else paid_at end
where team_id = $1 and environment = $2 and id = $3
returning *
