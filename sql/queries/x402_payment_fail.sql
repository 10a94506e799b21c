-- Marks a claimed payment failed with the reason the chain gave. Returns none.
-- $1 team_id, $2 environment, $3 id, $4 failure_reason
update x402_payments set status = 'failed', failure_reason = $4
where team_id = $1 and environment = $2 and id = $3 and status = 'claimed'
