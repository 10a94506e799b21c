-- Whether a live subscription, of any team, pays from this wallet on the network and token: on Solana its token
-- account's one delegate and delegated amount back that subscription, so it cannot fund top-ups too. Returns one
-- row or none.
-- $1 network, $2 token_symbol, $3 payment_account (the owner address)
select id from subscriptions
where network = $1 and token_symbol = $2 and payment_account = $3 and status in ('INCOMPLETE', 'TRIALING', 'ACTIVE', 'PAST_DUE')
limit 1
