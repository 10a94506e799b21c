-- Payment links, checkout sessions and on-chain payments.
-- Amounts are integer smallest units of the accepted token (numeric(78,0) holds any uint256).
-- A checkout session copies its link's terms when it opens, so editing or deactivating a link never
-- changes what an open session asks the customer to pay.

create table payment_links (
  id               text primary key,
  team_id          text not null references teams (id),
  environment      text not null check (environment in ('development', 'production')),
  network          text not null,               -- chain registry id
  chain_id         integer,                     -- EVM chain id; null for Stellar and Solana
  token_symbol     text not null,
  token            jsonb not null,               -- the registry's token entry when the link was made
  amount           numeric(78, 0) not null check (amount > 0),
  recipient_wallet text not null,
  company_id       text references companies (id) on delete restrict,
  purpose          text not null check (purpose in ('PAYMENT', 'ADDON', 'CREDITS')),
  add_on_plan_id   text references plans (id) on delete restrict,
  credit_amount    bigint check (credit_amount > 0),
  ttl_seconds      integer not null check (ttl_seconds between 60 and 604800),
  description      text,
  active           boolean not null default true,
  created_at       timestamptz not null default now(),
  seq              bigint generated always as identity,
  check (purpose <> 'ADDON' or add_on_plan_id is not null),
  check (purpose <> 'CREDITS' or credit_amount is not null)
);
create index payment_links_page on payment_links (team_id, environment, seq desc);

create table checkout_sessions (
  id               text primary key,
  team_id          text not null references teams (id),
  environment      text not null check (environment in ('development', 'production')),
  payment_link_id  text not null references payment_links (id),
  company_id       text references companies (id) on delete restrict,
  customer_wallet  text,
  status           text not null check (status in ('PENDING', 'CONFIRMING', 'PAID', 'EXPIRED', 'FAILED')),
  purpose          text not null check (purpose in ('PAYMENT', 'ADDON', 'CREDITS')),
  amount           numeric(78, 0) not null check (amount > 0),
  network          text not null,
  chain_id         integer,
  token_symbol     text not null,
  token            jsonb not null,
  recipient_wallet text not null,
  add_on_plan_id   text references plans (id) on delete restrict,
  credit_amount    bigint,
  memo             text,                         -- Stellar: the text memo the payment must carry
  tx_hash          text,                         -- the transaction submitted as payment, once one is
  failure_reason   text,
  failure_detail   text,
  expires_at       timestamptz not null,
  paid_at          timestamptz,
  created_at       timestamptz not null default now(),
  updated_at       timestamptz not null default now(),
  seq              bigint generated always as identity,
  check (status <> 'PAID' or (tx_hash is not null and paid_at is not null)),
  check (status <> 'FAILED' or failure_reason is not null)
);
create index checkout_sessions_page on checkout_sessions (team_id, environment, seq desc);
-- The sweeper's two scans: open sessions to expire, submitted ones to verify again.
create index checkout_sessions_open on checkout_sessions (status, expires_at) where status in ('PENDING', 'CONFIRMING');
-- A transaction pays one session only, across every team. Waiting sessions may share a hash: the first
-- one proven takes it (payments' unique key) and the others are reopened. Reserving a hash while it was
-- only waiting would let anyone who saw a pending transaction block the session it was meant for.
create unique index checkout_sessions_tx on checkout_sessions (network, tx_hash) where status = 'PAID';

-- One verified transfer paying one checkout session. The unique key is the replay guard: a transaction's
-- transfer proves one payment, once, whichever team or environment submits it.
create table payments (
  id                   text primary key,
  team_id              text not null references teams (id),
  environment          text not null check (environment in ('development', 'production')),
  checkout_session_id  text not null unique references checkout_sessions (id),
  network              text not null,
  tx_hash              text not null,
  transfer_index       integer not null check (transfer_index >= 0),
  amount               numeric(78, 0) not null check (amount > 0),
  token_symbol         text not null,
  payer                text not null,
  block_number         numeric(30, 0) not null,
  block_hash           text,
  created_at           timestamptz not null default now(),
  unique (network, tx_hash, transfer_index)
);
