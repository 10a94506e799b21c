-- The tenant's settlement wallets, one per network, by network. Returns many.
-- $1 team_id, $2 environment
select team_id, environment, network, wallet, tokens, created_at, updated_at
from settlement_wallets where team_id = $1 and environment = $2
order by network
