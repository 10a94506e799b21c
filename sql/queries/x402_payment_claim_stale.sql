-- Takes over, for x402.reconcile, claims still unfinished at the cutoff (their requests' leases ended), oldest first:
-- each is re-leased to now, so neither a retry nor another tick completes it meanwhile. Returns many.
-- $1 cutoff, $2 now, $3 at most this many
update x402_payments set claimed_at = $2::timestamptz
where id in (
  select id from x402_payments
  where status = 'claimed' and claimed_at <= $1::timestamptz
  order by claimed_at
  limit $3
  for update skip locked
)
returning id, team_id, environment, company_id, pack_id, network, asset, payer, nonce, pay_to, amount, valid_before, credits, request_fingerprint,
          x402_version, status, failure_reason, tx_hash, log_index, credit_grant_id, claimed_at, settled_at, seq
