-- Spends a payer's consent for the subscription it opens. A consent spent before (by any team) inserts nothing.
-- $1 network, $2 payer_wallet, $3 nonce, $4 team_id, $5 environment, $6 subscription_id, $7 now. Returns one row or none.
insert into payer_consents (network, payer_wallet, nonce, team_id, environment, subscription_id, created_at)
values ($1, $2, $3, $4, $5, $6, $7)
on conflict do nothing
returning subscription_id
