-- Issue 21, subscriptions on chain: subscriptions, their mandates (the payer's standing authorization, the
-- spec's mnd_ records), every chain operation made for them (keyed by its chain-side reference), and the
-- team's subscription settings (tax, dunning schedule, the plan a canceled company falls back to).

-- INCOMPLETE: the activation is reserved and its chain call is under way or its outcome unknown (the
-- reconciliation job finishes it from the chain); INCOMPLETE_EXPIRED: the activation failed, nothing was
-- charged. TRIALING/ACTIVE/PAST_DUE are live; CANCELED is final. price_amount is the period's list price in
-- invoice micro-units at the time of the last activation, renewal or plan change.
create table subscriptions (
  id                        text primary key,
  team_id                   text not null references teams (id),
  environment               text not null check (environment in ('development', 'production')),
  company_id                text not null references companies (id),
  plan_id                   text not null references plans (id),
  billing_period            text not null check (billing_period in ('monthly', 'yearly')),
  price_amount              bigint not null check (price_amount > 0),
  currency                  text not null,
  network                   text not null,
  token_symbol              text not null,
  payment_account           text not null check (char_length(payment_account) between 1 and 128),
  payee_wallet              text not null,
  subscriber_email          text check (char_length(subscriber_email) <= 320),
  coupon_id                 text references coupons (id),
  -- The activation's redemption: released again when the activation fails (nothing was charged).
  coupon_redemption_id      text,
  status                    text not null check (status in ('INCOMPLETE', 'INCOMPLETE_EXPIRED', 'TRIALING', 'ACTIVE', 'PAST_DUE', 'CANCELED')),
  -- Periods come from the anchor (src/lib/period.ts), never chained; period_index 0 is the first paid period.
  anchor_at                 timestamptz not null,
  period_index              integer not null default 0 check (period_index >= 0),
  current_period_start      timestamptz not null,
  current_period_end        timestamptz not null,
  trial_end                 timestamptz,
  cancel_at_period_end      boolean not null default false,
  canceled_at               timestamptz,
  cancel_reason             text check (char_length(cancel_reason) <= 500),
  -- A change that waits for the period's end (a downgrade by default).
  scheduled_plan_id         text references plans (id),
  scheduled_billing_period  text check (scheduled_billing_period in ('monthly', 'yearly')),
  token_id                  text,
  activation_reference      text not null check (activation_reference ~ '^0x[0-9a-f]{64}$'),
  activation_tx_hash        text,
  dunning_attempts          integer not null default 0 check (dunning_attempts >= 0),
  -- When the renewal job looks at it next: the period's end, a dunning retry; null when nothing is due.
  next_attempt_at           timestamptz,
  created_at                timestamptz not null default now(),
  updated_at                timestamptz not null default now(),
  seq                       bigint generated always as identity,
  check (current_period_end > current_period_start),
  check ((status = 'CANCELED') = (canceled_at is not null)),
  check ((scheduled_plan_id is null) = (scheduled_billing_period is null))
);
-- One live subscription per company: a second activation (or a racing one) is a 409, before any chain call.
create unique index subscriptions_live_per_company on subscriptions (team_id, environment, company_id)
  where status in ('INCOMPLETE', 'TRIALING', 'ACTIVE', 'PAST_DUE');
create unique index subscriptions_activation_reference on subscriptions (network, activation_reference);
create unique index subscriptions_token on subscriptions (network, token_id) where token_id is not null;
create index subscriptions_page on subscriptions (team_id, environment, seq desc);
-- The renewal job's scan, across tenants: what is due now.
create index subscriptions_due on subscriptions (next_attempt_at) where status in ('TRIALING', 'ACTIVE', 'PAST_DUE') and next_attempt_at is not null;
create index subscriptions_incomplete on subscriptions (created_at) where status = 'INCOMPLETE';

-- The payer's standing authorization, as the spec shows it. Amounts are token units: authorized is the
-- lifetime cap, remaining what is left of it, lowered in the transaction that records each pull.
create table mandates (
  id                 text primary key,
  team_id            text not null references teams (id),
  environment        text not null check (environment in ('development', 'production')),
  subscription_id    text not null unique references subscriptions (id),
  company_id         text not null references companies (id),
  network            text not null,
  token_symbol       text not null,
  payer_wallet       text not null,
  recipient_wallet   text not null,
  authorized_amount  numeric(78, 0) not null check (authorized_amount >= 0),
  remaining_amount   numeric(78, 0) not null check (remaining_amount >= 0 and remaining_amount <= authorized_amount),
  status             text not null check (status in ('ACTIVE', 'EXPIRED', 'REVOKED')),
  expires_at         timestamptz,
  revoked_at         timestamptz,
  revoked_by         text check (char_length(revoked_by) <= 200),
  revoke_reason      text check (char_length(revoke_reason) <= 500),
  expired_at         timestamptz,
  expiry_reason      text check (expiry_reason in ('expires_at_passed', 'remaining_below_next_charge')),
  created_at         timestamptz not null default now(),
  updated_at         timestamptz not null default now(),
  check ((status = 'REVOKED') = (revoked_at is not null)),
  check ((status = 'EXPIRED') = (expired_at is not null))
);
create index mandates_expiring on mandates (expires_at) where status = 'ACTIVE' and expires_at is not null;

-- Every chain operation for a subscription. The row (with its reference) is committed BEFORE the chain is
-- asked, so an operation whose answer is lost is found again by its reference and never sent blindly twice.
-- period_start names the period paid for; attempt counts dunning retries (renewal) or changes (proration).
create table subscription_charges (
  id               text primary key,
  team_id          text not null references teams (id),
  environment      text not null check (environment in ('development', 'production')),
  subscription_id  text not null references subscriptions (id),
  kind             text not null check (kind in ('activation', 'renewal', 'proration')),
  reference        text not null check (reference ~ '^0x[0-9a-f]{64}$'),
  network          text not null,
  period_start     timestamptz not null,
  attempt          integer not null default 0 check (attempt >= 0),
  invoice_id       text references invoices (id),
  amount           numeric(78, 0) not null check (amount >= 0),
  status           text not null check (status in ('pending', 'succeeded', 'failed')),
  failure_reason   text,
  failure_detail   text check (char_length(failure_detail) <= 500),
  tx_hash          text,
  payment_id       text references payments (id),
  created_at       timestamptz not null default now(),
  completed_at     timestamptz,
  check ((status = 'pending') = (completed_at is null)),
  check (status <> 'succeeded' or tx_hash is not null or amount = 0)
);
create unique index subscription_charges_reference on subscription_charges (network, reference);
create unique index subscription_charges_attempt on subscription_charges (subscription_id, kind, period_start, attempt);
-- The safety net under the renewal job: one successful renewal per subscription and period.
create unique index subscription_charges_one_renewal on subscription_charges (subscription_id, period_start)
  where kind = 'renewal' and status = 'succeeded';
-- At most one operation in flight per subscription: a renewal and a plan change never pull at once.
create unique index subscription_charges_one_pending on subscription_charges (subscription_id) where status = 'pending';
create index subscription_charges_pending on subscription_charges (created_at) where status = 'pending';
create index subscription_charges_of on subscription_charges (subscription_id, created_at desc);

-- Per team and environment; a missing row means the defaults.
create table subscription_settings (
  team_id               text not null references teams (id),
  environment           text not null check (environment in ('development', 'production')),
  -- Tax on subscription invoices, 1/10000 of a percent (as invoice lines take it).
  tax_rate              integer not null default 0 check (tax_rate between 0 and 1000000),
  -- Hours after the failed renewal at which it is tried again; after the last, the subscription is CANCELED.
  dunning_retry_hours   integer[] not null default '{24,72,168}'
    check (cardinality(dunning_retry_hours) between 0 and 10 and 0 < all (dunning_retry_hours) and 8784 >= all (dunning_retry_hours)),
  -- The plan a company falls back to when its subscription ends; null: no plan (only its overrides).
  fallback_plan_id      text references plans (id) on delete set null,
  updated_at            timestamptz not null default now(),
  primary key (team_id, environment)
);
