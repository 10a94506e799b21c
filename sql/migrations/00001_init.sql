-- Foundation schema: tenancy, credentials, customers, catalog, audit log.
-- Every tenant table carries team_id and environment, and every query filters on both.
-- `seq` (identity) gives each paginated table a stable, strictly increasing order for cursors.

create table teams (
  id          text primary key,
  name        text not null,
  created_at  timestamptz not null default now()
);

create table api_keys (
  id            text primary key,
  team_id       text not null references teams (id),
  environment   text not null check (environment in ('development', 'production')),
  name          text not null,
  description   text,
  type          text not null check (type in ('SECRET', 'RESTRICTED', 'PUBLISHABLE', 'LEGACY')),
  prefix        text not null,
  key_hash      text not null unique,          -- SHA-256 hex of the raw key; the raw key is never stored
  permissions   text[] not null default '{}',
  expires_at    timestamptz,
  revoked_at    timestamptz,
  last_used_at  timestamptz,
  created_at    timestamptz not null default now(),
  seq           bigint generated always as identity,
  check (type <> 'RESTRICTED' or cardinality(permissions) > 0)
);
create index api_keys_team_env on api_keys (team_id, environment, seq desc);

create table dashboard_sessions (
  id           text primary key,
  team_id      text not null references teams (id),
  environment  text not null check (environment in ('development', 'production')),
  user_email   text not null,
  roles        text[] not null,
  token_hash   text not null unique,
  expires_at   timestamptz not null,
  revoked_at   timestamptz,
  created_at   timestamptz not null default now()
);

create table companies (
  id                 text primary key,
  team_id            text not null references teams (id),
  environment        text not null check (environment in ('development', 'production')),
  external_id        text,
  name               text,
  email              text,
  wallet_address     text,
  logo_url           text,
  traits             jsonb not null default '{}',
  active_plan_id     text,
  active_add_on_ids  text[] not null default '{}',
  created_at         timestamptz not null default now(),
  last_seen_at       timestamptz not null default now(),
  seq                bigint generated always as identity
);
create unique index companies_external_id on companies (team_id, environment, external_id) where external_id is not null;
create unique index companies_email on companies (team_id, environment, lower(email)) where email is not null;
create unique index companies_wallet on companies (team_id, environment, lower(wallet_address)) where wallet_address is not null;
create index companies_page on companies (team_id, environment, seq desc);

create table users (
  id              text primary key,
  team_id         text not null references teams (id),
  environment     text not null check (environment in ('development', 'production')),
  external_id     text,
  idp_user_id     text,
  name            text,
  email           text,
  wallet_address  text,
  traits          jsonb not null default '{}',
  created_at      timestamptz not null default now(),
  last_seen_at    timestamptz not null default now(),
  seq             bigint generated always as identity
);
create unique index users_external_id on users (team_id, environment, external_id) where external_id is not null;
create unique index users_idp_user_id on users (team_id, environment, idp_user_id) where idp_user_id is not null;
create unique index users_email on users (team_id, environment, lower(email)) where email is not null;
create unique index users_wallet on users (team_id, environment, lower(wallet_address)) where wallet_address is not null;
create index users_page on users (team_id, environment, seq desc);

-- A user can belong to several companies (one person, several customer organisations).
create table company_memberships (
  team_id      text not null,
  environment  text not null,
  company_id   text not null references companies (id) on delete cascade,
  user_id      text not null references users (id) on delete cascade,
  created_at   timestamptz not null default now(),
  primary key (team_id, environment, company_id, user_id)
);
create index company_memberships_user on company_memberships (team_id, environment, user_id);

create table plans (
  id           text primary key,
  team_id      text not null references teams (id),
  environment  text not null check (environment in ('development', 'production')),
  name         text not null,
  tier         text not null default 'standard',
  description  text,
  created_at   timestamptz not null default now(),
  seq          bigint generated always as identity
);

create table features (
  id            text primary key,
  team_id       text not null references teams (id),
  environment   text not null check (environment in ('development', 'production')),
  name          text not null,
  feature_key   text not null,
  feature_type  text not null check (feature_type in ('boolean', 'event', 'trait')),
  event_key     text not null default '',
  icon          text not null default '',
  description   text not null default '',
  created_at    timestamptz not null default now(),
  seq           bigint generated always as identity
);
create unique index features_key on features (team_id, environment, feature_key);

-- The entitlement of one feature on one plan.
--   boolean: enabled on/off
--   quota:   limit_amount units per period (day, week, month, lifetime), reset on the company's billing anchor
--   credit:  each use burns credits_per_use from the company's credit balance
--   trait:   compare the company trait `trait_key` with `trait_value` using `trait_operator`
create table plan_entitlements (
  id              text primary key,
  team_id         text not null,
  environment     text not null,
  plan_id         text not null references plans (id) on delete cascade,
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
  unique (team_id, environment, plan_id, feature_id),
  check (kind <> 'quota' or (limit_amount is not null and period is not null)),
  check (kind <> 'credit' or credits_per_use is not null),
  check (kind <> 'trait' or (trait_key is not null and trait_operator is not null and trait_value is not null))
);
create index plan_entitlements_feature on plan_entitlements (team_id, environment, feature_id);

-- Credits granted to a company; burned soonest-expiring first (never-expiring last).
create table credit_grants (
  id           text primary key,
  team_id      text not null,
  environment  text not null,
  company_id   text not null references companies (id) on delete cascade,
  amount       bigint not null check (amount > 0),
  remaining    bigint not null check (remaining >= 0),
  reason       text,
  expires_at   timestamptz,
  created_at   timestamptz not null default now()
);
create index credit_grants_company on credit_grants (team_id, environment, company_id);

create table audit_log (
  id             text primary key,
  team_id        text not null references teams (id),
  environment    text not null check (environment in ('development', 'production')),
  actor_kind     text not null,
  actor_id       text not null,
  action         text not null,
  resource_type  text not null,
  resource_id    text not null,
  request_id     text,
  details        jsonb not null default '{}',
  created_at     timestamptz not null default now(),
  seq            bigint generated always as identity
);
create index audit_log_page on audit_log (team_id, environment, seq desc);
