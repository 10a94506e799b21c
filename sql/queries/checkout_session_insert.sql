-- Opens a checkout session with a copy of its link's terms. Returns one row.
-- $1 the session as one jsonb record: id, team_id, environment, payment_link_id, company_id, customer_wallet,
-- purpose, amount (numeric text), network, chain_id, token_symbol, recipient_wallet, add_on_plan_id,
-- credit_amount (integer text), memo, expires_at, created_at (also its updated_at), token (the registry's token
-- entry); jsonb_populate_record casts each to its column's type.
insert into checkout_sessions (id, team_id, environment, payment_link_id, company_id, customer_wallet, status, purpose,
                               amount, network, chain_id, token_symbol, recipient_wallet, add_on_plan_id,
                               credit_amount, memo, expires_at, created_at, updated_at, token)
select r.id, r.team_id, r.environment, r.payment_link_id, r.company_id, r.customer_wallet, 'PENDING', r.purpose,
       r.amount, r.network, r.chain_id, r.token_symbol, r.recipient_wallet, r.add_on_plan_id,
       r.credit_amount, r.memo, r.expires_at, r.created_at, r.created_at, r.token
from jsonb_populate_record(null::checkout_sessions, $1::jsonb) r
returning *
