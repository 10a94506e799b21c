-- Adds an entry to a company's credit balance ledger (positive: owed to the customer). Returns none.
-- $1 id, $2 team_id, $3 environment, $4 company_id, $5 currency, $6 amount, $7 reason, $8 invoice_id,
-- $9 credit_note_id, $10 payment_id, $11 now
insert into customer_balance_entries (id, team_id, environment, company_id, currency, amount, reason, invoice_id,
                                      credit_note_id, payment_id, created_at)
values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
