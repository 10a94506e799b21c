-- Records how a payment went to an invoice: the part applied to it and the excess (to the credit balance). Returns none.
-- $1 team_id, $2 environment, $3 payment id, $4 invoice_id, $5 applied_micro, $6 excess_micro, $7 paid_at
update payments set invoice_id = $4, applied_micro = $5, excess_micro = $6, paid_at = $7
where team_id = $1 and environment = $2 and id = $3
