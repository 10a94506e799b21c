-- Records one verified transfer as a payment submitted for an invoice (no checkout session), applied to nothing
-- yet: applyPayment sets what went to the invoice and to the credit balance in the same transaction. A
-- transaction that already proved a payment inserts nothing (returns no row): the caller reports a replay.
-- Returns one row or none.
-- $1 team_id, $2 environment, $3 now (paid_at and created_at),
-- $4 the payment as one jsonb record, keys named as the columns: id, invoice_id, network, tx_hash, transfer_index,
--    amount (numeric text), token_symbol, payer, block_number (numeric text), block_hash
insert into payments (id, team_id, environment, invoice_id, applied_micro, excess_micro, network, tx_hash, transfer_index, amount,
                      token_symbol, payer, block_number, block_hash, paid_at, created_at)
select r.id, $1, $2, r.invoice_id, 0, 0, r.network, r.tx_hash, r.transfer_index, r.amount, r.token_symbol, r.payer,
       r.block_number, r.block_hash, $3::timestamptz, $3::timestamptz
from jsonb_populate_record(null::payments, $4::jsonb) r
on conflict (network, tx_hash) do nothing
returning id
