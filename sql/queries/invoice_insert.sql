-- Creates a draft invoice with zero totals (its lines and totals follow in the same transaction; the deferred
-- totals trigger checks them at commit). Returns one row, none when the source already has its invoice.
-- $1 id, $2 team_id, $3 environment, $4 currency, $5 network, $6 company_id, $7 customer_name, $8 customer_email,
-- $9 customer_wallet, $10 plan_id, $11 description, $12 metadata (jsonb), $13 source, $14 source_id,
-- $15 payment_terms_days, $16 now
insert into invoices (id, team_id, environment, number, status, currency, network, company_id, customer_name, customer_email,
                      customer_wallet, plan_id, description, metadata, source, source_id, payment_terms_days, created_at, updated_at)
values ($1, $2, $3, 'DRAFT-' || $1, 'DRAFT', $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $16)
on conflict (team_id, environment, source, source_id) do nothing
returning *
