-- The tenant's funding mandates, one per network, newest first. Returns many.
-- $1 team_id, $2 environment
select id, team_id, environment, network, token_symbol, funding_wallet, operator, authorized_amount::text, remaining_amount::text,
  daily_cap::text, consent->>'total' as signed_total, status, created_at, updated_at, seq
from agent_funding_mandates
where team_id = $1 and environment = $2
order by seq desc
