-- Marks a claimed payment settled with the token Transfer that paid it and the credit grant it bought. Returns one row
-- (none when it was not claimed by this tenant or is no longer claimed).
-- $1 team_id, $2 environment, $3 id, $4 tx_hash, $5 credit_grant_id, $6 now, $7 log_index
update x402_payments set status = 'settled', tx_hash = $4, credit_grant_id = $5, settled_at = $6::timestamptz, log_index = $7
where team_id = $1 and environment = $2 and id = $3 and status = 'claimed'
returning id, team_id, environment, company_id, pack_id, network, asset, payer, nonce, pay_to, amount, valid_before, credits, request_fingerprint,
          x402_version, status, failure_reason, tx_hash, log_index, credit_grant_id, claimed_at, settled_at, seq
