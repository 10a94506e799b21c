-- Escrow reservations (docs/escrow.md): the service's record of each reservation on a network's escrow contract
-- (contracts/Escrow.sol), which keys it by its payee and request nonce: keccak256(abi.encode(payee,
-- keccak256(request_nonce))). The payee is the team's settlement wallet, so each tenant has its own nonces. The chain is the truth for the money; a row
-- follows it. `pending` is the row of a reservation being sent (the chain may not have it yet); `pending_action`
-- marks an operator call sent and not yet recorded, claimed in its own commit before the chain is asked, so two
-- workers never send one twice, and completed from the chain by the reconcile job when its answer was lost.
create table escrow_reservations (
  id                text primary key,
  team_id           text not null references teams (id),
  environment       text not null check (environment in ('development', 'production')),
  -- our comp_ id when the creator named a company; its embed tokens may dispute
  company_id        text references companies (id),
  network           text not null,
  -- the escrow contract, lowercase
  contract          text not null check (contract ~ '^0x[0-9a-f]{40}$'),
  request_nonce     text not null check (char_length(request_nonce) between 1 and 128),
  -- EVM addresses, lowercase
  payer             text not null check (payer ~ '^0x[0-9a-f]{40}$'),
  payee             text not null check (payee ~ '^0x[0-9a-f]{40}$'),
  token             text not null check (token ~ '^0x[0-9a-f]{40}$'),
  token_symbol      text not null,
  -- token units (uint256)
  amount            numeric(78, 0) not null check (amount > 0),
  window_ends_at    timestamptz not null,
  consent_deadline  timestamptz not null,
  -- the Reclaim provider name whose verified proof may capture early (the consent signs its keccak256); null: none may
  delivery_provider text check (char_length(delivery_provider) between 1 and 200),
  -- the payer's EIP-712 signature of the consent, kept so a reservation whose answer was lost can be sent again
  consent_signature text not null,
  status            text not null check (status in ('pending', 'authorized', 'captured', 'disputed', 'refunded')),
  pending_action    text check (pending_action in ('reserve', 'capture', 'capture_early', 'dispute', 'resolve_refund', 'resolve_capture')),
  pending_since     timestamptz,
  authorize_tx      text,
  capture_tx        text,
  dispute_tx        text,
  refund_tx         text,
  -- captured within the window on a verified zkTLS proof (its zkp_ id)
  captured_early    boolean not null default false,
  capture_proof_id  text,
  dispute_reason    text check (char_length(dispute_reason) <= 1000),
  -- how the payer proved itself: 'signature' (its wallet) or 'embed_token'; 'chain' when it disputed on the contract itself
  disputed_via      text check (disputed_via in ('signature', 'embed_token', 'chain')),
  created_at        timestamptz not null,
  updated_at        timestamptz not null,
  authorized_at     timestamptz,
  captured_at       timestamptz,
  disputed_at       timestamptz,
  refunded_at       timestamptz,
  seq               bigint generated always as identity,
  unique (network, contract, payee, request_nonce),
  check ((pending_action is null) = (pending_since is null))
);

create index escrow_reservations_page on escrow_reservations (team_id, environment, seq desc);
create index escrow_reservations_nonce on escrow_reservations (request_nonce);
create index escrow_reservations_due on escrow_reservations (window_ends_at) where status = 'authorized' and pending_action is null;
create index escrow_reservations_pending on escrow_reservations (pending_since) where pending_action is not null;
