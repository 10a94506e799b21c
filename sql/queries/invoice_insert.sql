-- Creates a draft invoice with zero totals (its lines and totals follow in the same transaction; the deferred
-- totals trigger checks them at commit). Returns one row, none when the source already has its invoice.
-- $1 id, $2 team_id, $3 environment, $4 source, $5 source_id, $6 now,
-- $7 the header as one jsonb record, keys named as the columns: currency, network, company_id, customer_name,
--    customer_email, customer_wallet, plan_id, description, metadata (an object), payment_terms_days
insert into invoices (id, team_id, environment, number, status, currency, network, company_id, customer_name, customer_email,
                      customer_wallet, plan_id, description, metadata, source, source_id, payment_terms_days, created_at, updated_at)
select $1, $2, $3, 'DRAFT-' || $1, 'DRAFT', h.currency, h.network, h.company_id, h.customer_name, h.customer_email,
       h.customer_wallet, h.plan_id, h.description, h.metadata, $4, $5, h.payment_terms_days, $6, $6
from jsonb_populate_record(null::invoices, $7::jsonb) as h
on conflict (team_id, environment, source, source_id) do nothing
returning *
