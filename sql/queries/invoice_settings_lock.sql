-- The tenant's invoice settings, locked until the transaction ends (created with the defaults when missing), so
-- that concurrent partial updates each merge into what the previous one wrote. Returns one row.
-- $1 team_id, $2 environment, $3 now
insert into invoice_settings (team_id, environment, updated_at)
values ($1, $2, $3)
on conflict (team_id, environment) do update set updated_at = invoice_settings.updated_at
returning seller_name, seller_address, seller_tax_id, seller_email, payment_terms_days, footer, email_on_issue, updated_at
