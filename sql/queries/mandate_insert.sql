-- A subscription's mandate, ACTIVE. Returns one row.
-- $1 id, $2 team_id, $3 environment, $4 subscription_id, $5 company_id, $6 network, $7 token_symbol, $8 payer_wallet,
-- $9 recipient_wallet, $10 authorized_amount (numeric text), $11 remaining_amount (numeric text), $12 expires_at, $13 now
insert into mandates (id, team_id, environment, subscription_id, company_id, network, token_symbol, payer_wallet, recipient_wallet,
                      authorized_amount, remaining_amount, status, expires_at, created_at, updated_at)
values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10::numeric, $11::numeric, 'ACTIVE', $12, $13, $13)
returning *
