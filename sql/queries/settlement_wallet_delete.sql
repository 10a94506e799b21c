-- Removes the tenant's settlement wallet on a network. Returns the removed row, or none when there was none.
-- $1 team_id, $2 environment, $3 network
delete from settlement_wallets where team_id = $1 and environment = $2 and network = $3
returning team_id, environment, network, wallet, tokens, created_at, updated_at
