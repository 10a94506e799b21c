-- Records one verified transfer as a payment submitted for an invoice (no checkout session), applied to nothing
-- yet: applyPayment sets what went to the invoice and to the credit balance in the same transaction. A
-- transaction that already proved a payment inserts nothing (returns no row): the caller reports a replay.
-- Returns one row or none.
-- $1 id, $2 team_id, $3 environment, $4 invoice_id, $5 network, $6 tx_hash, $7 transfer_index, $8 amount (numeric text),
-- $9 token_symbol, $10 payer, $11 block_number (numeric text), $12 block_hash, $13 now
insert into payments (id, team_id, environment, invoice_id, applied_micro, excess_micro, network, tx_hash, transfer_index, amount,
                      token_symbol, payer, block_number, block_hash, paid_at, created_at)
values ($1, $2, $3, $4, 0, 0, $5, $6, $7, $8::numeric, $9, $10, $11::numeric, $12, $13, $13)
on conflict (network, tx_hash) do nothing
returning id
