-- x402 payment terms on the insufficient-credit 402 (docs/x402.md).
--
-- A credit pack: `credits` for a price per accepted network and token. At most one live pack per tenant is the
-- one a 402 offers (`offer_on_payment_required`); archiving it frees the flag for another.
create table credit_packs (
  id                         text primary key,
  team_id                    text not null references teams (id),
  environment                text not null check (environment in ('development', 'production')),
  key                        text not null check (key ~ '^[A-Za-z0-9_-]{1,64}$'),
  name                       text not null,
  credits                    bigint not null check (credits > 0),
  -- [{network, token, amount}]: the registry's network id, the token's symbol, the price in token units (integer string)
  prices                     jsonb not null check (jsonb_typeof(prices) = 'array' and jsonb_array_length(prices) > 0),
  offer_on_payment_required  boolean not null default false,
  enabled                    boolean not null default true,
  archived_at                timestamptz,
  created_at                 timestamptz not null,
  updated_at                 timestamptz not null,
  seq                        bigint generated always as identity
);
create unique index credit_packs_key on credit_packs (team_id, environment, lower(key));
create unique index credit_packs_offered on credit_packs (team_id, environment) where offer_on_payment_required and archived_at is null;
create index credit_packs_page on credit_packs (team_id, environment, seq desc);

-- One row per EIP-3009 authorization the service took: claimed before it is sent to the chain, so two requests
-- carrying the same authorization never settle it twice. The authorization is unique across every team and
-- environment: a signed payment pays once, wherever it is presented.
create table x402_payments (
  id                   text primary key,
  team_id              text not null references teams (id),
  environment          text not null check (environment in ('development', 'production')),
  company_id           text not null references companies (id),
  pack_id              text not null references credit_packs (id),
  -- the registry's network id; token contract, payer and nonce in lowercase hex
  network              text not null,
  asset                text not null check (asset ~ '^0x[0-9a-f]{40}$'),
  payer                text not null check (payer ~ '^0x[0-9a-f]{40}$'),
  nonce                text not null check (nonce ~ '^0x[0-9a-f]{64}$'),
  pay_to               text not null,
  amount               numeric(78, 0) not null check (amount > 0),
  -- the authorization's validBefore (unix seconds): past it, one never spent on chain can no longer be (x402.reconcile)
  valid_before         numeric(78, 0) not null,
  credits              bigint not null check (credits > 0),
  -- sha-256 of the tenant, company, method, path and body of the request that carried the payment (docs/x402.md#idempotency)
  request_fingerprint  text not null,
  x402_version         integer not null check (x402_version in (1, 2)),
  status               text not null check (status in ('claimed', 'settled', 'failed')),
  failure_reason       text,
  tx_hash              text,
  -- the position in tx_hash's receipt of the token's Transfer this authorization made: one Transfer pays one payment
  log_index            integer,
  credit_grant_id      text,
  claimed_at           timestamptz not null,
  settled_at           timestamptz,
  seq                  bigint generated always as identity,
  -- payer and nonce first: a retry is matched to its claim by the signed authorization alone, whatever is offered now
  unique (payer, nonce, network, asset),
  check ((status = 'settled') = (tx_hash is not null and log_index is not null and credit_grant_id is not null and settled_at is not null)),
  check ((status = 'failed') = (failure_reason is not null))
);
create index x402_payments_page on x402_payments (team_id, environment, seq desc);
create unique index x402_payments_transfer on x402_payments (network, tx_hash, log_index) where tx_hash is not null;
create index x402_payments_claimed on x402_payments (claimed_at) where status = 'claimed';
