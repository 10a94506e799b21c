-- Creates a payment link. Returns one row.
-- $1 id, $2 team_id, $3 environment, $4 network, $5 chain_id, $6 token_symbol, $7 amount (numeric text),
-- $8 recipient_wallet, $9 company_id, $10 purpose, $11 add_on_plan_id, $12 credit_amount, $13 ttl_seconds,
-- $14 description, $15 token (jsonb)
insert into payment_links (id, team_id, environment, network, chain_id, token_symbol, amount, recipient_wallet,
                           company_id, purpose, add_on_plan_id, credit_amount, ttl_seconds, description, token)
values ($1, $2, $3, $4, $5, $6, $7::numeric, $8, $9, $10, $11, $12, $13, $14, $15::jsonb)
returning *
