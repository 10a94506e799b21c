-- Outbound webhooks (Standard Webhooks): endpoints per team and environment, the outbox of messages, one
-- delivery per message and endpoint, one attempt row per try, and operator notifications.

-- An endpoint's signing secret is stored sealed (AES-GCM, src/modules/webhooks/secrets.ts): it must be read
-- back to sign. During a rotation's overlap the previous secret signs too, until previous_expires_at.
create table webhook_endpoints (
  id                   text primary key,
  team_id              text not null references teams (id),
  environment          text not null check (environment in ('development', 'production')),
  url                  text not null check (length(url) <= 2048),
  description          text check (length(description) <= 500),
  event_types          text[] not null default '{}', -- empty: every event type
  secret_sealed        bytea not null,
  previous_secret_sealed bytea,
  previous_expires_at  timestamptz,
  enabled              boolean not null default true,
  disabled_reason      text,
  disabled_at          timestamptz,
  created_at           timestamptz not null default now(),
  updated_at           timestamptz not null default now(),
  seq                  bigint generated always as identity,
  check (enabled or disabled_at is not null),
  check ((previous_secret_sealed is null) = (previous_expires_at is null))
);
create index webhook_endpoints_page on webhook_endpoints (team_id, environment, seq desc);
-- emitEvent's one read on every state change: the tenant's enabled endpoints.
create index webhook_endpoints_enabled on webhook_endpoints (team_id, environment) where enabled;

-- A message is one event, kept as the exact bytes sent (every attempt and replay signs the same body);
-- its id is the `webhook-id` header. Written only when at least one endpoint is subscribed.
create table webhook_messages (
  id           text primary key,
  team_id      text not null references teams (id),
  environment  text not null check (environment in ('development', 'production')),
  event_type   text not null,
  body         text not null,
  created_at   timestamptz not null default now()
);

create table webhook_deliveries (
  id               text primary key,
  team_id          text not null,
  environment      text not null check (environment in ('development', 'production')),
  endpoint_id      text not null references webhook_endpoints (id) on delete cascade,
  message_id       text not null references webhook_messages (id),
  status           text not null default 'pending' check (status in ('pending', 'delivered', 'failed', 'skipped')),
  attempts         integer not null default 0,
  last_status_code integer,
  last_latency_ms  integer,
  last_error       text,
  next_attempt_at  timestamptz,
  first_attempt_at timestamptz,
  delivered_at     timestamptz,
  created_at       timestamptz not null default now(),
  updated_at       timestamptz not null default now(),
  seq              bigint generated always as identity
);
create index webhook_deliveries_page on webhook_deliveries (team_id, environment, endpoint_id, seq desc);
create index webhook_deliveries_message on webhook_deliveries (message_id);
-- The persistent-failure rule: any success on the endpoint since a failed delivery's first attempt.
create index webhook_deliveries_success on webhook_deliveries (endpoint_id, delivered_at) where status = 'delivered';

-- One row per attempt, keyed by (delivery, attempt number): two workers running the same job never both
-- send attempt n. A row with finished_at null is in flight; its claim lapses after claimed_at + a lease.
create table webhook_attempts (
  delivery_id      text not null references webhook_deliveries (id) on delete cascade,
  attempt          integer not null check (attempt >= 1),
  team_id          text not null,
  environment      text not null check (environment in ('development', 'production')),
  claim            text not null,
  claimed_at       timestamptz not null,
  finished_at      timestamptz,
  status_code      integer,
  latency_ms       integer,
  error            text,
  response_excerpt text,
  primary key (delivery_id, attempt)
);

-- What the operator must be told (an endpoint disabled after persistent failure, ...), listed by the dashboard.
create table operator_notifications (
  id             text primary key,
  team_id        text not null references teams (id),
  environment    text not null check (environment in ('development', 'production')),
  kind           text not null,
  resource_type  text not null,
  resource_id    text not null,
  message        text not null,
  details        jsonb not null default '{}',
  created_at     timestamptz not null default now(),
  seq            bigint generated always as identity
);
create index operator_notifications_page on operator_notifications (team_id, environment, resource_type, seq desc);
