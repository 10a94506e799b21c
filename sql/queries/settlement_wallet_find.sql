-- The tenant's settlement wallet on a network. Returns one row or none.
-- $1 team_id, $2 environment, $3 network
select team_id, environment, network, wallet, tokens, created_at, updated_at
from settlement_wallets where team_id = $1 and environment = $2 and network = $3
