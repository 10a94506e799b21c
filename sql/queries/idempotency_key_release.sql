-- Frees the key of an attempt whose response is not kept (a 400, 401, 403 or 5xx: nothing was written),
-- so that a retry runs. Only the attempt holding the key ($5) can free it. Returns none.
-- $1 team_id, $2 environment, $3 scope, $4 key, $5 claim
delete from idempotency_keys
where team_id = $1 and environment = $2 and scope = $3 and key = $4 and claim = $5
