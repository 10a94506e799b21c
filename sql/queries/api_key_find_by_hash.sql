-- Resolves a presented key by the SHA-256 of its raw value. Not tenant-filtered by design: the hash
-- is what identifies the tenant. Returns one row or none.
-- $1 key_hash
select id, team_id, environment, type, permissions, expires_at, revoked_at
from api_keys
where key_hash = $1
