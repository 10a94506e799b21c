-- Revokes a key (idempotent: an already revoked key keeps its first revokedAt). Returns one row or none.
-- $1 team_id, $2 environment, $3 id
update api_keys
set revoked_at = coalesce(revoked_at, now())
where team_id = $1 and environment = $2 and id = $3
returning id, name, prefix, description, type, permissions, environment, expires_at, revoked_at, last_used_at, created_at
