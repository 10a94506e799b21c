-- Records the tenant's funding mandate on a network from the allowance read on chain: created, or replaced whole
-- (a new approval: authorized and remaining both become what the chain allows now) and active again. Returns one row.
-- $1 id (used only when created), $2 team_id, $3 environment, $4 network, $5 token_symbol, $6 funding_wallet,
-- $7 operator, $8 authorized_amount, $9 daily_cap, $10 now, $11 the wallet's signed consent {issuedAt, nonce, signature} (jsonb)
insert into agent_funding_mandates (id, team_id, environment, network, token_symbol, funding_wallet, operator, authorized_amount,
  remaining_amount, daily_cap, consent, status, created_at, updated_at)
values ($1, $2, $3, $4, $5, $6, $7, $8::numeric, $8::numeric, $9::numeric, $11::jsonb, 'ACTIVE', $10, $10)
on conflict (team_id, environment, network) do update
  set token_symbol = excluded.token_symbol,
      funding_wallet = excluded.funding_wallet,
      operator = excluded.operator,
      authorized_amount = excluded.authorized_amount,
      remaining_amount = excluded.remaining_amount,
      daily_cap = excluded.daily_cap,
      consent = excluded.consent,
      status = 'ACTIVE',
      updated_at = excluded.updated_at
returning id, team_id, environment, network, token_symbol, funding_wallet, operator, authorized_amount::text, remaining_amount::text,
  daily_cap::text, consent->>'total' as signed_total, status, created_at, updated_at, seq
