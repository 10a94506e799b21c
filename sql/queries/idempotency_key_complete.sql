-- Stores the response of the attempt holding the key ($5); an attempt whose claim was taken over stores
-- nothing. Returns none.
-- $1 team_id, $2 environment, $3 scope, $4 key, $5 claim, $6 response status, $7 response headers (jsonb),
-- $8 response body (bytea)
update idempotency_keys
set status = 'complete', response_status = $6, response_headers = $7::jsonb, response_body = $8
where team_id = $1 and environment = $2 and scope = $3 and key = $4 and claim = $5 and status = 'in_progress'
