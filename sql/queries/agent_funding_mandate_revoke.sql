-- Revokes the tenant's funding mandate on a network: no top-up draws on it any more. Returns the row, or none.
-- $1 team_id, $2 environment, $3 network, $4 now
update agent_funding_mandates set status = 'REVOKED', updated_at = $4
where team_id = $1 and environment = $2 and network = $3
returning id, team_id, environment, network, token_symbol, funding_wallet, operator, authorized_amount::text, remaining_amount::text,
  daily_cap::text, consent->>'total' as signed_total, status, created_at, updated_at, seq
