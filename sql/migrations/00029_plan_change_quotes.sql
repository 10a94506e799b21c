-- A plan change's quote: what a preview (POST /dashboard/companies/{id}/plan/preview, POST /companies/plan/preview)
-- priced, at which instant, against which state of the subscription. The change given its id prices at that
-- instant and charges exactly the quoted amounts, once, before it expires; a subscription that moved since (basis)
-- or amounts that no longer come out the same refuse it (src/modules/subscriptions/quotes.ts).
create table plan_change_quotes (
  id                  text primary key,
  team_id             text not null references teams (id),
  environment         text not null check (environment in ('development', 'production')),
  company_id          text not null references companies (id),
  subscription_id     text not null references subscriptions (id),
  -- the terms priced, as resolved: our plan id, the billing period, the coupon code given, when it takes effect
  plan_id             text not null references plans (id),
  billing_period      text not null check (billing_period in ('monthly', 'yearly')),
  coupon_code         text check (char_length(coupon_code) <= 64),
  effective           text not null check (effective in ('now', 'period_end')),
  -- the subscription's fields a change depends on, as they stood (a fingerprint, compared as text)
  basis               text not null,
  priced_at           timestamptz not null,
  expires_at          timestamptz not null,
  -- invoice micro-units: what the change's invoice asks (0: none), what the credit balance gains, the lines' net
  invoice_total       bigint not null check (invoice_total >= 0),
  credit_to_balance   bigint not null check (credit_to_balance >= 0),
  net                 bigint not null,
  used_at             timestamptz,
  created_at          timestamptz not null default now(),
  check (expires_at > priced_at)
);
create index plan_change_quotes_company on plan_change_quotes (team_id, environment, company_id, expires_at);
