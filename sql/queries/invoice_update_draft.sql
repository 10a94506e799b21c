-- Rewrites a draft's header fields and totals (its lines are replaced in the same transaction). Returns the row.
-- $1 team_id, $2 environment, $3 id, $4 subtotal, $5 tax_total, $6 now,
-- $7 the header as one jsonb record, keys named as the columns: currency, network, company_id, customer_name,
--    customer_email, customer_wallet, plan_id, description, metadata (an object), payment_terms_days
update invoices
set currency = h.currency, network = h.network, company_id = h.company_id, customer_name = h.customer_name,
    customer_email = h.customer_email, customer_wallet = h.customer_wallet, plan_id = h.plan_id, description = h.description,
    metadata = h.metadata, payment_terms_days = h.payment_terms_days, subtotal = $4, tax_total = $5,
    total = $4::int8 + $5::int8, updated_at = $6
from jsonb_populate_record(null::invoices, $7::jsonb) as h
where invoices.team_id = $1 and invoices.environment = $2 and invoices.id = $3 and invoices.status = 'DRAFT'
returning invoices.*
