-- Inserts a pending reservation (status pending, pending_action reserve), unless its payee's nonce is taken on this
-- network and contract. Returns the row, or none when the nonce is taken.
-- $1 the reservation (jsonb: id, team_id, environment, company_id, network, contract, request_nonce, payer, payee,
--    token, token_symbol, amount, window_ends_at, consent_deadline, delivery_provider, consent_signature, created_at)
insert into escrow_reservations (
  id, team_id, environment, company_id, network, contract, request_nonce, payer, payee, token, token_symbol, amount,
  window_ends_at, consent_deadline, delivery_provider, consent_signature, status, pending_action, pending_since, created_at, updated_at
)
select r.id, r.team_id, r.environment, r.company_id, r.network, r.contract, r.request_nonce, r.payer, r.payee, r.token,
  r.token_symbol, r.amount, r.window_ends_at, r.consent_deadline, r.delivery_provider, r.consent_signature, 'pending', 'reserve', r.created_at,
  r.created_at, r.created_at
from jsonb_populate_record(null::escrow_reservations, $1::jsonb) r
on conflict (network, contract, payee, request_nonce) do nothing
returning *
