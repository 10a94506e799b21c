-- The claim of an EIP-3009 authorization, whichever team made it (the caller compares tenant and request). Returns one row or none.
-- $1 network, $2 asset, $3 payer, $4 nonce (lowercase hex)
select id, team_id, environment, company_id, pack_id, network, asset, payer, nonce, pay_to, amount, credits, request_fingerprint,
       x402_version, status, failure_reason, tx_hash, credit_grant_id, claimed_at, settled_at, seq
from x402_payments where network = $1 and asset = $2 and payer = $3 and nonce = $4
