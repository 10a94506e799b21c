-- Issue 19, catalog with prices: plan kinds (add-ons are plans of kind add_on), trial days, prices per
-- billing period, on-chain plan ids per network, coupons and their redemptions, and archiving of plans,
-- features and coupons (history kept, hidden from lists, granting nothing).

alter table plans
  add column kind        text not null default 'plan' check (kind in ('plan', 'add_on')),
  add column trial_days  integer not null default 0 check (trial_days between 0 and 365),
  add column archived_at timestamptz,
  add column updated_at  timestamptz not null default now();
create index plans_page on plans (team_id, environment, seq desc);

-- One price per plan and billing period. amount is invoice micro-units (6 fractional digits, see
-- src/lib/money); currency is the settlement token's symbol (USDC), checked against the chain registry
-- when the price is written.
create table plan_prices (
  team_id         text not null,
  environment     text not null check (environment in ('development', 'production')),
  plan_id         text not null references plans (id) on delete cascade,
  billing_period  text not null check (billing_period in ('monthly', 'yearly')),
  amount          bigint not null check (amount > 0),
  currency        text not null check (char_length(currency) between 1 and 32),
  created_at      timestamptz not null default now(),
  updated_at      timestamptz not null default now(),
  primary key (team_id, environment, plan_id, billing_period)
);

-- The plan's identity on one network (what POST /subscriptions/activate names as planId). One per plan
-- and network; an on-chain id names one plan per team, environment and network.
create table plan_onchain_ids (
  team_id          text not null,
  environment      text not null check (environment in ('development', 'production')),
  plan_id          text not null references plans (id) on delete cascade,
  network          text not null,
  onchain_plan_id  text not null,
  primary key (team_id, environment, plan_id, network),
  unique (team_id, environment, network, onchain_plan_id)
);

alter table features add column archived_at timestamptz;
-- "Does this feature have usage history?" (archive instead of delete) without scanning every event.
create index events_feature on events (team_id, environment, feature_id) where feature_id is not null;

-- A discount: percent off (basis points) or an amount off in a currency, exactly one of them.
-- redemptions never passes max_redemptions: redeemCoupon raises it with one guarded UPDATE.
create table coupons (
  id                text primary key,
  team_id           text not null references teams (id),
  environment       text not null check (environment in ('development', 'production')),
  code              text not null check (code ~ '^[A-Za-z0-9_-]{1,64}$'),
  name              text not null,
  percent_off_bp    integer check (percent_off_bp between 1 and 10000),
  amount_off        bigint check (amount_off > 0),
  currency          text check (char_length(currency) between 1 and 32),
  duration          text not null check (duration in ('once', 'repeating', 'forever')),
  duration_periods  integer check (duration_periods between 1 and 1200),
  max_redemptions   integer check (max_redemptions > 0),
  redemptions       integer not null default 0 check (redemptions >= 0),
  expires_at        timestamptz,
  plan_ids          text[] not null default '{}',
  archived_at       timestamptz,
  created_at        timestamptz not null default now(),
  updated_at        timestamptz not null default now(),
  seq               bigint generated always as identity,
  check ((percent_off_bp is null) <> (amount_off is null)),
  check ((amount_off is null) = (currency is null)),
  check ((duration = 'repeating') = (duration_periods is not null)),
  check (max_redemptions is null or redemptions <= max_redemptions)
);
create unique index coupons_code on coupons (team_id, environment, lower(code));
create index coupons_page on coupons (team_id, environment, seq desc);

-- Each successful redemption: which company, for which plan, when.
create table coupon_redemptions (
  id           text primary key,
  team_id      text not null,
  environment  text not null check (environment in ('development', 'production')),
  coupon_id    text not null references coupons (id),
  company_id   text not null references companies (id) on delete cascade,
  plan_id      text references plans (id) on delete set null,
  redeemed_at  timestamptz not null,
  seq          bigint generated always as identity
);
create index coupon_redemptions_coupon on coupon_redemptions (team_id, environment, coupon_id, seq desc);
