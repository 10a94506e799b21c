-- Records one verified transfer as the payment of a checkout session. A transaction that already proved
-- a payment inserts nothing (returns no row): the caller reports a replay. Returns one row or none.
-- $1 id, $2 team_id, $3 environment, $4 checkout_session_id, $5 network, $6 tx_hash, $7 transfer_index,
-- $8 amount (numeric text), $9 token_symbol, $10 payer, $11 block_number (numeric text), $12 block_hash
insert into payments (id, team_id, environment, checkout_session_id, network, tx_hash, transfer_index, amount,
                      token_symbol, payer, block_number, block_hash)
values ($1, $2, $3, $4, $5, $6, $7, $8::numeric, $9, $10, $11::numeric, $12)
on conflict (network, tx_hash) do nothing
returning *
