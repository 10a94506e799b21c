-- Deletes up to $2 expired idempotency keys, across every tenant (the service's own periodic clean-up,
-- not a request); the caller repeats while a full batch was deleted. Returns none (the command's count).
-- The outer condition repeats the expiry: a key re-claimed between the subquery and the delete is a new
-- row version that no longer qualifies, and must survive. Rows another transaction holds are skipped.
-- $1 now, $2 batch size
delete from idempotency_keys
where expires_at <= $1
  and (team_id, environment, scope, key) in (
    select team_id, environment, scope, key from idempotency_keys where expires_at <= $1 limit $2 for update skip locked
  )
