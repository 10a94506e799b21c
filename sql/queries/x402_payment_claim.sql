-- Claims an EIP-3009 authorization for one request before it is sent to the chain. Returns one row (none when the
-- authorization was claimed before, by any team: the unique key is payer, nonce, network, asset).
-- $1 id, $2 team_id, $3 environment, $4 now, $5 the payment (jsonb, keys named as the columns: company_id, pack_id,
-- network, asset, payer, nonce, pay_to, amount and valid_before (integer strings), credits, request_fingerprint, x402_version)
insert into x402_payments (id, team_id, environment, company_id, pack_id, network, asset, payer, nonce, pay_to, amount, valid_before,
                           credits, request_fingerprint, x402_version, status, claimed_at)
select $1, $2, $3, p.company_id, p.pack_id, p.network, p.asset, p.payer, p.nonce, p.pay_to, p.amount, p.valid_before, p.credits,
       p.request_fingerprint, p.x402_version, 'claimed', $4::timestamptz
from jsonb_populate_record(null::x402_payments, $5::jsonb) p
on conflict (payer, nonce, network, asset) do nothing
returning id, team_id, environment, company_id, pack_id, network, asset, payer, nonce, pay_to, amount, valid_before, credits, request_fingerprint,
          x402_version, status, failure_reason, tx_hash, log_index, credit_grant_id, claimed_at, settled_at, seq
