-- Sets the tenant's settlement wallet on a network (creates it, or replaces its wallet and tokens). Returns one row.
-- $1 team_id, $2 environment, $3 network, $4 wallet, $5 tokens (text[]: symbols; empty = every token of the network), $6 now
insert into settlement_wallets (team_id, environment, network, wallet, tokens, created_at, updated_at)
values ($1, $2, $3, $4, $5::text[], $6, $6)
on conflict (team_id, environment, network) do update set wallet = excluded.wallet, tokens = excluded.tokens, updated_at = excluded.updated_at
returning team_id, environment, network, wallet, tokens, created_at, updated_at
