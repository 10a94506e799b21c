-- Which tenant, if any, receives at this wallet on this network (any team: a wallet receives for one tenant, so a
-- payment link may not name another tenant's). Returns one row or none.
-- $1 network, $2 wallet
select team_id, environment
from settlement_wallets
where network = $1 and wallet_key = case when $2::text ~ '^0x[0-9a-fA-F]{40}$' then lower($2::text) else $2::text end
