-- A subscription's mandate, ACTIVE. Returns one row.
-- $1 team_id, $2 environment, $4 now, $3 the mandate (jsonb, keys named as the columns): id, subscription_id,
-- company_id, network, token_symbol, payer_wallet, recipient_wallet, authorized_amount (numeric text),
-- remaining_amount (numeric text), expires_at
insert into mandates (id, team_id, environment, subscription_id, company_id, network, token_symbol, payer_wallet, recipient_wallet,
                      authorized_amount, remaining_amount, status, expires_at, created_at, updated_at)
select r.id, $1, $2, r.subscription_id, r.company_id, r.network, r.token_symbol, r.payer_wallet, r.recipient_wallet,
       r.authorized_amount, r.remaining_amount, 'ACTIVE', r.expires_at, $4::timestamptz, $4::timestamptz
from jsonb_populate_record(null::mandates, $3::jsonb) r
returning *
