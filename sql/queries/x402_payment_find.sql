-- The claims of an EIP-3009 authorization by payer and nonce, whichever team made them, on any network and token (the
-- caller matches network, asset, tenant and request). Returns many (in practice one).
-- $1 payer, $2 nonce (lowercase hex)
select id, team_id, environment, company_id, pack_id, network, asset, payer, nonce, pay_to, amount, valid_before, credits, request_fingerprint,
       x402_version, status, failure_reason, tx_hash, log_index, credit_grant_id, claimed_at, settled_at, seq
from x402_payments where payer = $1 and nonce = $2
order by seq
