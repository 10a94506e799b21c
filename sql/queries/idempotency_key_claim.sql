-- Claims an idempotency key for one attempt: inserts the row, or takes over a row past its time (expired,
-- or in progress since before $9: its owner is presumed crashed). The row lock of ON CONFLICT makes two
-- attempts racing for the same stale row serialise: the second sees the first's fresh claim and gets nothing.
-- Returns one row when claimed, none when a live row holds the key.
-- $1 team_id, $2 environment, $3 scope, $4 key, $5 claim, $6 fingerprint, $7 now, $8 expires_at, $9 stale before
insert into idempotency_keys as k (team_id, environment, scope, key, claim, fingerprint, status, created_at, expires_at)
values ($1, $2, $3, $4, $5, $6, 'in_progress', $7, $8)
on conflict (team_id, environment, scope, key) do update
  set claim = excluded.claim, fingerprint = excluded.fingerprint, status = 'in_progress', response_status = null,
      response_headers = null, response_body = null, created_at = excluded.created_at, expires_at = excluded.expires_at
  -- (the conflict target already holds the tenant; compared again so every tenant statement reads the same)
  where k.team_id = excluded.team_id and k.environment = excluded.environment
    and (k.expires_at <= excluded.created_at or (k.status = 'in_progress' and k.created_at <= $9::timestamptz))
returning claim
