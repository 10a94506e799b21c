-- Records a credit note. Returns the row.
-- $1 id, $2 team_id, $3 environment, $4 invoice_id, $5 number, $6 sequence, $7 reason, $8 credit_amount,
-- $9 refund_amount, $10 refund_id, $11 memo, $12 now
insert into credit_notes (id, team_id, environment, invoice_id, number, sequence, reason, credit_amount, refund_amount,
                          refund_id, memo, created_at)
values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
returning *
