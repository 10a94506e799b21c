-- The tenant's funding mandate on a network, locked until commit: dispatches of one team and network are decided
-- one at a time, so the remaining amount and the daily cap are never both spent by two. Returns the row, or none.
-- $1 team_id, $2 environment, $3 network
select id, team_id, environment, network, token_symbol, funding_wallet, operator, authorized_amount::text, remaining_amount::text,
  daily_cap::text, consent->>'total' as signed_total, status, created_at, updated_at, seq
from agent_funding_mandates
where team_id = $1 and environment = $2 and network = $3
for update
