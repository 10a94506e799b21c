-- Records a proven refund. Returns the row, none when the transaction already proved a refund (the replay guard).
-- $1 id, $2 team_id, $3 environment, $4 invoice_id, $5 amount, $6 token_symbol, $7 token_amount, $8 network, $9 tx_hash,
-- $10 sender_wallet, $11 recipient_wallet, $12 reason, $13 block_number, $14 now
insert into refunds (id, team_id, environment, invoice_id, amount, token_symbol, token_amount, network, tx_hash, sender_wallet,
                     recipient_wallet, reason, block_number, created_at)
values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)
on conflict (network, tx_hash) do nothing
returning *, null::text as credit_note_id
