-- Records a proven refund. Returns the row, none when the transaction already proved a refund (the replay guard).
-- $1 id, $2 team_id, $3 environment, $4 invoice_id, $5 now,
-- $6 the refund as one jsonb record, keys named as the columns: amount, token_symbol, token_amount, network, tx_hash,
--    sender_wallet, recipient_wallet, reason, block_number (numbers as strings; each takes its column's type)
insert into refunds (id, team_id, environment, invoice_id, amount, token_symbol, token_amount, network, tx_hash, sender_wallet,
                     recipient_wallet, reason, block_number, created_at)
select $1, $2, $3, $4, r.amount, r.token_symbol, r.token_amount, r.network, r.tx_hash, r.sender_wallet,
       r.recipient_wallet, r.reason, r.block_number, $5
from jsonb_populate_record(null::refunds, $6::jsonb) as r
on conflict (network, tx_hash) do nothing
returning *, null::text as credit_note_id
