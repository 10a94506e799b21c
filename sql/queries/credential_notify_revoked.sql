-- Tells every instance to drop a revoked credential from its cache (delivered at commit). Returns one row.
-- $1 credential id
select pg_notify('credential_revoked', $1)
