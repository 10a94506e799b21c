-- Issue 20, invoices: the team's settlement wallets and invoice settings, invoices and their lines,
-- gapless number series, payments applied to invoices, credit notes, refunds, the customer credit
-- balance and invoice deliveries. Amounts are invoice micro-units (bigint, 6 fractional digits, see
-- src/lib/money) unless the column says token units (numeric(78,0)). BILLING.md's invariants are CHECK
-- constraints here, and "totals are the sums of the lines" is a deferred constraint trigger, so no
-- code path can commit an invoice that does not add up.

-- Where money arrives, per team, environment and network: used by invoices, refunds and subscriptions
-- (payment links name their own recipient). `tokens` are the symbols accepted there; empty = all the
-- network's tokens.
create table settlement_wallets (
  team_id      text not null references teams (id),
  environment  text not null check (environment in ('development', 'production')),
  network      text not null,
  wallet       text not null check (char_length(wallet) between 1 and 128),
  tokens       text[] not null default '{}',
  -- The wallet as one key per address: EVM addresses in any case are one address (addressKey in src/chains/addresses.ts).
  wallet_key   text generated always as (case when wallet ~ '^0x[0-9a-fA-F]{40}$' then lower(wallet) else wallet end) stored,
  created_at   timestamptz not null default now(),
  updated_at   timestamptz not null default now(),
  primary key (team_id, environment, network),
  -- A wallet receives for one tenant: the replay guard is global (a transaction proves one payment anywhere),
  -- so a team that registered another's wallet could submit that team's customers' transfers as its own.
  unique (network, wallet_key)
);

-- What an invoice says about the seller, and its payment terms. One row per team and environment; a
-- team without one gets the defaults (team name, 30 days).
create table invoice_settings (
  team_id             text not null references teams (id),
  environment         text not null check (environment in ('development', 'production')),
  seller_name         text check (char_length(seller_name) <= 200),
  seller_address      text check (char_length(seller_address) <= 1000),
  seller_tax_id       text check (char_length(seller_tax_id) <= 64),
  seller_email        text check (char_length(seller_email) <= 320),
  payment_terms_days  integer not null default 30 check (payment_terms_days between 0 and 365),
  footer              text check (char_length(footer) <= 2000),
  email_on_issue      boolean not null default true,
  updated_at          timestamptz not null default now(),
  primary key (team_id, environment)
);

-- Gapless series: the issuing transaction takes the next value with one UPDATE (the row lock
-- serializes issuers of one tenant and series), so a rollback returns the number with everything else.
create table document_number_counters (
  team_id      text not null references teams (id),
  environment  text not null check (environment in ('development', 'production')),
  series       text not null check (series in ('invoice', 'credit_note')),
  last_value   bigint not null default 0 check (last_value >= 0),
  primary key (team_id, environment, series)
);

create table invoices (
  id                  text primary key,
  team_id             text not null references teams (id),
  environment         text not null check (environment in ('development', 'production')),
  -- 'DRAFT-<id>' while a draft (never from the series); INV-000001 once issued.
  number              text not null,
  sequence            bigint check (sequence > 0),
  status              text not null check (status in ('DRAFT', 'ISSUED', 'PAID', 'VOID', 'OVERDUE')),
  currency            text not null check (char_length(currency) between 1 and 32),
  -- The chain the invoice settles on: set when created (checkout, subscription) or by its first payment.
  network             text,
  company_id          text references companies (id) on delete restrict,
  customer_name       text check (char_length(customer_name) <= 200),
  customer_email      text check (char_length(customer_email) <= 320),
  customer_wallet     text check (char_length(customer_wallet) <= 128),
  plan_id             text,
  description         text check (char_length(description) <= 2000),
  metadata            jsonb not null default '{}',
  source              text not null check (source in ('manual', 'checkout_session', 'subscription')),
  source_id           text,
  payment_terms_days  integer not null check (payment_terms_days between 0 and 365),
  subtotal            bigint not null default 0,
  tax_total           bigint not null default 0,
  total               bigint not null default 0 check (total >= 0),
  amount_paid         bigint not null default 0 check (amount_paid >= 0),
  amount_credited     bigint not null default 0 check (amount_credited >= 0),
  amount_refunded     bigint not null default 0 check (amount_refunded >= 0),
  -- A void invoice asks for nothing; otherwise max(0, total - paid - credited) (BILLING.md).
  amount_outstanding  bigint generated always as (case when status = 'VOID' then 0 else greatest(0, total - amount_paid - amount_credited) end) stored,
  issued_at           timestamptz,
  due_at              timestamptz,
  paid_at             timestamptz,
  voided_at           timestamptz,
  created_at          timestamptz not null default now(),
  updated_at          timestamptz not null default now(),
  seq                 bigint generated always as identity,
  -- Lower-cased number, email and wallet: what GET /invoices?q= searches (trigram index below). Joined by the
  -- unit separator (chr 31), which a q never holds, so a match never spans two fields.
  search_text         text generated always as (lower(number || chr(31) || coalesce(customer_email, '') || chr(31) || coalesce(customer_wallet, ''))) stored,
  constraint invoices_total_is_sum check (total = subtotal + tax_total),
  constraint invoices_paid_within_total check (amount_paid <= total),
  constraint invoices_refunds_within_paid check (amount_refunded <= amount_paid),
  constraint invoices_credits_within_total check (amount_credited + amount_refunded <= total),
  constraint invoices_numbered_when_issued check (case status when 'DRAFT' then sequence is null when 'VOID' then true else sequence is not null end),
  constraint invoices_issued_at check (status in ('DRAFT', 'VOID') or issued_at is not null),
  constraint invoices_paid_owes_nothing check (status <> 'PAID' or (paid_at is not null and total - amount_paid - amount_credited <= 0)),
  constraint invoices_void_unpaid check (status <> 'VOID' or (amount_paid = 0 and voided_at is not null)),
  constraint invoices_open_owes check (status not in ('ISSUED', 'OVERDUE') or total - amount_paid - amount_credited > 0),
  constraint invoices_source_id check (source = 'manual' or source_id is not null)
);
create unique index invoices_number on invoices (team_id, environment, sequence) where sequence is not null;
create index invoices_page on invoices (team_id, environment, seq desc);
create index invoices_status_page on invoices (team_id, environment, status, seq desc);
-- The overdue job's scan: issued invoices whose due date passed.
create index invoices_due on invoices (due_at) where status = 'ISSUED';
-- One invoice per paid checkout session or subscription period (the backfill and retries rely on it);
-- manual invoices have no source id, and nulls never collide.
create unique index invoices_source on invoices (team_id, environment, source, source_id);
-- Trigram index for substring search. The extension lives in a schema of its own, so its functions stay
-- out of public (where every function is ours: sql/functions or a migration).
create schema if not exists extensions;
create extension if not exists pg_trgm schema extensions;
create index invoices_search on invoices using gin (search_text extensions.gin_trgm_ops);

-- lineSubtotal = quantity x unitAmount; lineTax = round(lineSubtotal x taxRate / 100) half away from
-- zero (PostgreSQL's numeric round), taxRate in 1/10000 of a percent; lineTotal = subtotal + tax.
create table invoice_lines (
  invoice_id     text not null references invoices (id) on delete cascade,
  position       integer not null check (position >= 0),
  kind           text not null default 'item' check (kind in ('item', 'discount', 'proration', 'credit')),
  description    text not null check (char_length(description) between 1 and 500),
  quantity       bigint not null check (quantity between 1 and 1000000000),
  unit_amount    bigint not null,
  tax_rate       integer not null check (tax_rate between 0 and 1000000),
  line_subtotal  bigint not null,
  line_tax       bigint not null,
  line_total     bigint not null,
  plan_id        text,
  period_start   timestamptz,
  period_end     timestamptz,
  primary key (invoice_id, position),
  check (line_subtotal = quantity * unit_amount),
  -- A multiplication by 10^-6, not a division: numeric division picks its own scale and would round first.
  check (line_tax = round(line_subtotal::numeric * tax_rate * 0.000001)),
  check (line_total = line_subtotal + line_tax)
);

-- Totals are the sums of the lines, checked at commit (lines and totals are written in one transaction,
-- in either order).
create function invoice_totals_check() returns trigger language plpgsql as $$
declare
  inv record;
  sums record;
  -- the invoice id column of the row that changed: tg_argv[0] names it (id on invoices, invoice_id on lines)
  target text := to_jsonb(case when tg_op = 'DELETE' then old else new end) ->> tg_argv[0];
begin
  select subtotal, tax_total into inv from invoices where id = target;
  if not found then return null; end if;
  select coalesce(sum(line_subtotal), 0) as subtotal, coalesce(sum(line_tax), 0) as tax
    into sums from invoice_lines where invoice_id = target;
  if inv.subtotal <> sums.subtotal or inv.tax_total <> sums.tax then
    raise exception 'invoice % totals (%, %) are not the sums of its lines (%, %)', target, inv.subtotal, inv.tax_total, sums.subtotal, sums.tax
      using errcode = 'check_violation';
  end if;
  return null;
end $$;
create constraint trigger invoices_totals after insert or update of subtotal, tax_total on invoices
  deferrable initially deferred for each row execute function invoice_totals_check('id');
create constraint trigger invoice_lines_totals after insert or update or delete on invoice_lines
  deferrable initially deferred for each row execute function invoice_totals_check('invoice_id');

-- Payments now pay invoices too: a proof submitted for an invoice has no checkout session, and a paid
-- checkout session's payment points at the invoice it produced. The (network, tx_hash) key stays the
-- replay guard for both. applied = what went to the invoice, excess = what went past its outstanding
-- amount (to the customer's credit balance), both micro-units.
alter table payments alter column checkout_session_id drop not null;
alter table payments
  add column invoice_id     text references invoices (id),
  add column applied_micro  bigint check (applied_micro >= 0),
  add column excess_micro   bigint check (excess_micro >= 0),
  add column paid_at        timestamptz,
  add constraint payments_pays_something check (checkout_session_id is not null or invoice_id is not null),
  add constraint payments_applied_with_invoice check ((invoice_id is null) = (applied_micro is null));
create index payments_invoice on payments (invoice_id) where invoice_id is not null;

-- Money sent back, proven on chain: from the team's settlement wallet to recipient_wallet.
create table refunds (
  id                text primary key,
  team_id           text not null references teams (id),
  environment       text not null check (environment in ('development', 'production')),
  invoice_id        text not null references invoices (id),
  amount            bigint not null check (amount > 0),
  token_symbol      text not null,
  token_amount      numeric(78, 0) not null check (token_amount > 0),
  network           text not null,
  tx_hash           text not null,
  sender_wallet     text not null,
  recipient_wallet  text not null,
  reason            text not null check (char_length(reason) between 1 and 500),
  block_number      numeric(30, 0) not null,
  created_at        timestamptz not null default now(),
  unique (network, tx_hash)
);
create index refunds_invoice on refunds (invoice_id, created_at);

create table credit_notes (
  id              text primary key,
  team_id         text not null references teams (id),
  environment     text not null check (environment in ('development', 'production')),
  invoice_id      text not null references invoices (id),
  number          text not null,
  sequence        bigint not null check (sequence > 0),
  reason          text not null check (char_length(reason) between 1 and 500),
  -- credit part: lowers what the invoice asks (past its outstanding amount: to the credit balance)
  credit_amount   bigint not null check (credit_amount >= 0),
  -- refund part: matches a refund of money paid
  refund_amount   bigint not null check (refund_amount >= 0),
  total           bigint generated always as (credit_amount + refund_amount) stored,
  refund_id       text unique references refunds (id),
  memo            text check (char_length(memo) <= 2000),
  created_at      timestamptz not null default now(),
  seq             bigint generated always as identity,
  unique (team_id, environment, sequence),
  check (credit_amount + refund_amount > 0),
  check ((refund_id is null) = (refund_amount = 0))
);
create index credit_notes_invoice on credit_notes (invoice_id, seq);

create table credit_note_lines (
  credit_note_id  text not null references credit_notes (id) on delete cascade,
  position        integer not null check (position >= 0),
  description     text not null check (char_length(description) between 1 and 500),
  amount          bigint not null check (amount > 0),
  primary key (credit_note_id, position)
);


-- The customer's credit balance, as a ledger (positive: owed to the customer). Overpayments and credit
-- notes past an invoice's outstanding amount add to it; later invoices draw on it.
create table customer_balance_entries (
  id              text primary key,
  team_id         text not null references teams (id),
  environment     text not null check (environment in ('development', 'production')),
  company_id      text not null references companies (id),
  currency        text not null,
  amount          bigint not null check (amount <> 0),
  reason          text not null,
  invoice_id      text references invoices (id),
  credit_note_id  text references credit_notes (id),
  payment_id      text references payments (id),
  created_at      timestamptz not null default now()
);
create index customer_balance_company on customer_balance_entries (team_id, environment, company_id, currency);

-- Each send of an invoice: by email (SMTP) or by webhook, retried by the job queue.
create table invoice_deliveries (
  id            text primary key,
  team_id       text not null references teams (id),
  environment   text not null check (environment in ('development', 'production')),
  invoice_id    text not null references invoices (id),
  channel       text not null check (channel in ('email', 'webhook')),
  destination   text not null check (char_length(destination) between 1 and 2048),
  trigger       text not null check (trigger in ('issue', 'manual')),
  status        text not null check (status in ('PENDING', 'SENT', 'FAILED')),
  attempts      integer not null default 0 check (attempts >= 0),
  last_error    text,
  sent_at       timestamptz,
  created_at    timestamptz not null default now(),
  updated_at    timestamptz not null default now(),
  check (status <> 'SENT' or sent_at is not null)
);
create index invoice_deliveries_invoice on invoice_deliveries (invoice_id, created_at);
