-- Creates an API key. Returns one row.
-- $1 id, $2 team_id, $3 environment, $4 name, $5 description, $6 type, $7 prefix, $8 key_hash,
-- $9 permissions (text[]), $10 expires_at
insert into api_keys (id, team_id, environment, name, description, type, prefix, key_hash, permissions, expires_at)
values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
returning id, name, prefix, description, type, permissions, environment, expires_at, revoked_at, last_used_at, created_at
