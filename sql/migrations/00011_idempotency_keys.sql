-- The Idempotency-Key header (README "Idempotent requests"): the first response to a keyed
-- state-changing request, kept so that its retries get that response instead of running again.
-- One row per (team, environment, credential, key): two credentials, or test and live, never share a key.
-- The primary key is the claim: a request runs only if its insert made (or took over) the row.
create table idempotency_keys (
  team_id          text not null references teams (id),
  environment      text not null check (environment in ('development', 'production')),
  scope            text not null,        -- the credential: API key id, embed token id or dashboard session id
  key              text not null check (char_length(key) between 1 and 255),
  claim            text not null,        -- the attempt holding the row: a released attempt finishing late matches nothing
  fingerprint      text not null,        -- SHA-256 over method, path with query and the SHA-256 of the body bytes
  status           text not null check (status in ('in_progress', 'complete')),
  response_status  integer,
  response_headers jsonb,
  response_body    bytea,
  created_at       timestamptz not null,
  expires_at       timestamptz not null,
  primary key (team_id, environment, scope, key),
  check (status <> 'complete' or (response_status is not null and response_headers is not null and response_body is not null))
);
-- The periodic prune deletes by age across every tenant.
create index idempotency_keys_expiry on idempotency_keys (expires_at);
