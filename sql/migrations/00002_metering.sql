-- Entitlements and usage metering: billing anchors, company overrides, usage counters, events.
-- Enforcement is exact because every consume locks the counter row (or the credit grants) it spends
-- from, inside one short transaction; nothing is read-then-written outside a lock.

-- Quota periods reset on the company's billing anchor: set when the company is first put on a plan
-- (null until then, when created_at serves as the anchor).
alter table companies add column billing_anchor timestamptz;

-- An event name must name at most one feature, so a track is metered against exactly one entitlement.
create unique index features_event_key on features (team_id, environment, event_key) where event_key <> '';

-- A company-level override of one feature's entitlement; it replaces whatever the plans grant.
create table company_overrides (
  id              text primary key,
  team_id         text not null,
  environment     text not null,
  company_id      text not null references companies (id) on delete cascade,
  feature_id      text not null references features (id) on delete cascade,
  kind            text not null check (kind in ('boolean', 'quota', 'credit', 'trait')),
  enabled         boolean not null default true,
  limit_amount    bigint check (limit_amount >= 0),
  period          text check (period in ('day', 'week', 'month', 'lifetime')),
  credits_per_use bigint check (credits_per_use > 0),
  trait_key       text,
  trait_operator  text check (trait_operator in ('eq', 'neq', 'gt', 'gte', 'lt', 'lte')),
  trait_value     text,
  created_at      timestamptz not null default now(),
  unique (team_id, environment, company_id, feature_id),
  check (kind <> 'quota' or (limit_amount is not null and period is not null)),
  check (kind <> 'credit' or credits_per_use is not null),
  check (kind <> 'trait' or (trait_key is not null and trait_operator is not null and trait_value is not null))
);

-- Units used by a company of a feature in one period (period_start is the period's first instant;
-- lifetime quotas use the epoch). The row is the lock that keeps concurrent consumes exact.
create table usage_counters (
  team_id       text not null,
  environment   text not null,
  company_id    text not null references companies (id) on delete cascade,
  feature_id    text not null references features (id) on delete cascade,
  period_start  timestamptz not null,
  used          bigint not null default 0 check (used >= 0),
  updated_at    timestamptz not null default now(),
  primary key (team_id, environment, company_id, feature_id, period_start)
);

-- Metered usage: every track event and every /usage/consume call, with its outcome. Rejected attempts
-- are kept so that a retry with the same idempotency key returns the original outcome; lists show
-- only accepted usage.
create table events (
  id               text primary key,
  team_id          text not null,
  environment      text not null check (environment in ('development', 'production')),
  source           text not null check (source in ('events', 'consume')),
  event_type       text not null check (event_type in ('track')),
  name             text not null,
  company_id       text,
  user_id          text,
  feature_id       text,
  quantity         bigint not null default 1 check (quantity > 0),
  credits_burned   bigint not null default 0 check (credits_burned >= 0),
  outcome          text not null check (outcome in ('accepted', 'insufficient_credits', 'limit_reached', 'feature_not_enabled')),
  traits           jsonb not null default '{}',
  idempotency_key  text check (char_length(idempotency_key) <= 128),
  sent_at          timestamptz not null,
  seq              bigint generated always as identity
);
create unique index events_idempotency on events (team_id, environment, source, idempotency_key) where idempotency_key is not null;
create index events_page on events (team_id, environment, seq desc) where outcome = 'accepted';
create index events_company on events (team_id, environment, company_id, seq desc) where outcome = 'accepted';

-- Grants are locked per company when credits burn; this index serves that lock in burn order.
drop index credit_grants_company;
create index credit_grants_burn_order on credit_grants (team_id, environment, company_id, expires_at nulls last, created_at, id);
