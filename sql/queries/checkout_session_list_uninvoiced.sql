-- Paid checkout sessions of the tenant whose payment carries no invoice (paid before invoices existed), in
-- the order they were opened, after a keyset position: the backfill's batches. Returns many (the session's
-- columns plus its payment's id, token amount and payer).
-- $1 team_id, $2 environment, $3 after seq (0: from the first), $4 limit
select s.*, p.id as payment_id, p.amount as payment_amount, p.payer as payment_payer
from checkout_sessions s
join payments p on p.checkout_session_id = s.id and p.team_id = s.team_id and p.environment = s.environment
where s.team_id = $1 and s.environment = $2 and s.status = 'PAID' and p.invoice_id is null and s.seq > $3
order by s.seq
limit $4
