-- Opens a checkout session with a copy of its link's terms. Returns one row.
-- $1 id, $2 team_id, $3 environment, $4 payment_link_id, $5 company_id, $6 customer_wallet, $7 purpose,
-- $8 amount (numeric text), $9 network, $10 chain_id, $11 token_symbol, $12 recipient_wallet,
-- $13 add_on_plan_id, $14 credit_amount, $15 memo, $16 expires_at, $17 created_at, $18 token (jsonb)
insert into checkout_sessions (id, team_id, environment, payment_link_id, company_id, customer_wallet, status, purpose,
                               amount, network, chain_id, token_symbol, recipient_wallet, add_on_plan_id,
                               credit_amount, memo, expires_at, created_at, updated_at, token)
values ($1, $2, $3, $4, $5, $6, 'PENDING', $7, $8::numeric, $9, $10, $11, $12, $13, $14, $15, $16, $17, $17, $18::jsonb)
returning *
