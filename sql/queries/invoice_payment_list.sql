-- The payments applied to an invoice, oldest first. Returns many.
-- $1 team_id, $2 environment, $3 invoice_id
select id, invoice_id, checkout_session_id, network, tx_hash, transfer_index, amount, token_symbol, payer, block_number,
       applied_micro, excess_micro, paid_at, created_at
from payments
where team_id = $1 and environment = $2 and invoice_id = $3
order by created_at, id
