-- Which tenant, if any, receives at this wallet on this network (any team: a wallet receives for one tenant, so a
-- payment link may not name another tenant's). Returns one row or none.
-- $1 network, $2 wallet key (addressKey in src/chains/addresses.ts: the wallet_key column's rule)
select team_id, environment
from settlement_wallets
where network = $1 and wallet_key = $2
