-- A page of the tenant's x402 payments, newest first. Returns many.
-- $1 team_id, $2 environment, $3 before seq (null: from the newest), $4 rows to fetch, $5 status (null: any)
select id, team_id, environment, company_id, pack_id, network, asset, payer, nonce, pay_to, amount, valid_before, credits, request_fingerprint,
       x402_version, status, failure_reason, tx_hash, log_index, credit_grant_id, claimed_at, settled_at, seq
from x402_payments
where team_id = $1 and environment = $2
  and ($3::bigint is null or seq < $3::bigint)
  and ($5::text is null or status = $5::text)
order by seq desc
limit $4
