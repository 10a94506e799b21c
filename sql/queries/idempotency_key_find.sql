-- The row holding an idempotency key, to answer a request that could not claim it. Returns one row or none.
-- $1 team_id, $2 environment, $3 scope, $4 key
select fingerprint, status, response_status, response_headers, response_body
from idempotency_keys
where team_id = $1 and environment = $2 and scope = $3 and key = $4
