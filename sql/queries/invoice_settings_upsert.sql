-- Sets the tenant's invoice settings (the whole record). Returns one row.
-- $1 team_id, $2 environment, $3 seller_name, $4 seller_address, $5 seller_tax_id, $6 seller_email,
-- $7 payment_terms_days, $8 footer, $9 email_on_issue, $10 now
insert into invoice_settings (team_id, environment, seller_name, seller_address, seller_tax_id, seller_email, payment_terms_days, footer,
                              email_on_issue, updated_at)
values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
on conflict (team_id, environment) do update set
  seller_name = excluded.seller_name, seller_address = excluded.seller_address, seller_tax_id = excluded.seller_tax_id,
  seller_email = excluded.seller_email, payment_terms_days = excluded.payment_terms_days, footer = excluded.footer,
  email_on_issue = excluded.email_on_issue, updated_at = excluded.updated_at
returning seller_name, seller_address, seller_tax_id, seller_email, payment_terms_days, footer, email_on_issue, updated_at
