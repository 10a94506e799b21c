-- Creates a payment link. Returns one row.
-- $1 the link as one jsonb record: id, team_id, environment, network, chain_id, token_symbol, amount (numeric
-- text), recipient_wallet, company_id, purpose, add_on_plan_id, credit_amount (integer text), ttl_seconds,
-- description, token (the registry's token entry); jsonb_populate_record casts each to its column's type.
insert into payment_links (id, team_id, environment, network, chain_id, token_symbol, amount, recipient_wallet,
                           company_id, purpose, add_on_plan_id, credit_amount, ttl_seconds, description, token)
select r.id, r.team_id, r.environment, r.network, r.chain_id, r.token_symbol, r.amount, r.recipient_wallet,
       r.company_id, r.purpose, r.add_on_plan_id, r.credit_amount, r.ttl_seconds, r.description, r.token
from jsonb_populate_record(null::payment_links, $1::jsonb) r
returning *
