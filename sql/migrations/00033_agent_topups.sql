-- Auto-topup of agent wallets (docs/agents.md#auto-topup). Amounts are token units (numeric(78,0): what a uint256
-- and an SPL u64 both fit in).

-- The funding source of a team's top-ups on one network: a wallet that approved the service's operator on the
-- network's token (the on-chain consent), recorded with what it authorized and what is left of it (the lifetime
-- cap, lowered by every dispatch in the transaction that records it), and the daily cap.
create table agent_funding_mandates (
  id                 text primary key,
  team_id            text not null references teams (id),
  environment        text not null check (environment in ('development', 'production')),
  network            text not null,
  token_symbol       text not null,
  funding_wallet     text not null,
  -- the operator address the funding wallet approved (the spender or SPL delegate), as read at registration
  operator           text not null,
  authorized_amount  numeric(78, 0) not null check (authorized_amount > 0),
  remaining_amount   numeric(78, 0) not null check (remaining_amount >= 0 and remaining_amount <= authorized_amount),
  -- top-ups per UTC day on this network, pending and confirmed dispatches counted
  daily_cap          numeric(78, 0) not null check (daily_cap > 0),
  -- the funding wallet's signature of the text naming this team, environment, network, token and daily cap
  -- ({issuedAt, nonce, signature}): the approval on chain names only the operator every team shares
  consent            jsonb not null,
  status             text not null check (status in ('ACTIVE', 'REVOKED')),
  created_at         timestamptz not null,
  updated_at         timestamptz not null,
  seq                bigint generated always as identity,
  unique (team_id, environment, network)
);

-- One configuration per team, environment, network and target wallet: a second POST /agent/dispatch updates it.
create table agent_topup_configs (
  id                     text primary key,
  team_id                text not null references teams (id),
  environment            text not null check (environment in ('development', 'production')),
  network                text not null,
  token_symbol           text not null,
  -- canonical spelling (EVM checksummed, Solana base58), so one wallet is one configuration
  target_wallet          text not null,
  min_balance_threshold  numeric(78, 0) not null check (min_balance_threshold > 0),
  topup_amount           numeric(78, 0) not null check (topup_amount > 0),
  enabled                boolean not null,
  -- true until a dispatch is claimed for the current crossing; set again when a tick sees the balance at or above
  -- the threshold (or the configuration is sent again)
  armed                  boolean not null,
  -- crossings dispatched so far: a dispatch is unique per (configuration, crossing)
  crossing               bigint not null default 0,
  -- a refused crossing is tried again from here, as if armed: the daily cap at the next UTC midnight, any other
  -- refusal after a backoff that doubles with each refusal in a row (docs/agents.md#retries)
  rearm_at               timestamptz,
  -- refusals in a row since the last confirmed top-up or balance seen back above the threshold: the backoff's step
  refusals               integer not null default 0,
  created_at             timestamptz not null,
  updated_at             timestamptz not null,
  seq                    bigint generated always as identity,
  unique (team_id, environment, network, target_wallet)
);

-- The monitor reads every enabled configuration of a network, across tenants, in id order.
create index agent_topup_configs_enabled on agent_topup_configs (network, id) where enabled;
create index agent_topup_configs_page on agent_topup_configs (team_id, environment, seq desc);

-- Each top-up, sent or refused. A configuration's history outlives it (no foreign key: deleting one keeps this).
create table agent_topup_dispatches (
  id                  text primary key,
  team_id             text not null references teams (id),
  environment         text not null check (environment in ('development', 'production')),
  config_id           text not null,
  crossing            bigint not null,
  funding_mandate_id  text,
  network             text not null,
  token_symbol        text not null,
  funding_wallet      text,
  target_wallet       text not null,
  amount              numeric(78, 0) not null check (amount > 0),
  -- the balance the tick saw below the threshold
  balance_seen        numeric(78, 0) not null,
  status              text not null check (status in ('pending', 'confirmed', 'failed')),
  -- failed: why (mandate_missing, mandate_exhausted, daily_cap_exceeded, insufficient_allowance, ...)
  reason              text,
  detail              text,
  tx_hash             text,
  -- 32 bytes of hex naming the send on chain (EVM calldata suffix, Solana marker account): recovery finds it by this
  reference           text not null check (reference ~ '^[0-9a-f]{64}$'),
  -- EVM: the block of the balance read; a lost send is looked for from there
  from_block          numeric(78, 0),
  -- recorded before the send is broadcast (docs/agents.md#recovery): EVM the signed transaction's hash (tx_hash) and
  -- the operator nonce it uses; Solana the last block height of the blockhash it carries. Recovery declares a send
  -- lost only once the chain is past these.
  operator_nonce      bigint,
  last_valid_height   bigint,
  created_at          timestamptz not null,
  updated_at          timestamptz not null,
  seq                 bigint generated always as identity,
  unique (config_id, crossing)
);

create index agent_topup_dispatches_page on agent_topup_dispatches (team_id, environment, seq desc);
-- The daily cap: what a team's network dispatched since the UTC day began, failures left out.
create index agent_topup_dispatches_day on agent_topup_dispatches (team_id, environment, network, created_at) where status <> 'failed';
-- Recovery: dispatches whose send outcome is not known yet.
create index agent_topup_dispatches_pending on agent_topup_dispatches (created_at) where status = 'pending';
