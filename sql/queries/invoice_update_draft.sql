-- Rewrites a draft's header fields and totals (its lines are replaced in the same transaction). Returns the row.
-- $1 team_id, $2 environment, $3 id, $4 currency, $5 network, $6 company_id, $7 customer_name, $8 customer_email,
-- $9 customer_wallet, $10 plan_id, $11 description, $12 metadata, $13 payment_terms_days, $14 subtotal, $15 tax_total,
-- $16 now
update invoices
set currency = $4, network = $5, company_id = $6, customer_name = $7, customer_email = $8, customer_wallet = $9,
    plan_id = $10, description = $11, metadata = $12, payment_terms_days = $13, subtotal = $14, tax_total = $15,
    total = $14::int8 + $15::int8, updated_at = $16
where team_id = $1 and environment = $2 and id = $3 and status = 'DRAFT'
returning *
