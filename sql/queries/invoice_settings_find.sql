-- The tenant's invoice settings. Returns one row or none (the defaults apply).
-- $1 team_id, $2 environment
select seller_name, seller_address, seller_tax_id, seller_email, payment_terms_days, footer, email_on_issue
from invoice_settings where team_id = $1 and environment = $2
