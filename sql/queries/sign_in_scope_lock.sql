-- Serializes sign-in attempts per throttle scope until the caller's transaction ends, so each attempt
-- counts the ones before it (locks taken in scope order: two attempts never wait on each other in a cycle).
-- Scopes are accounts and client addresses, not tenants. Returns one row per scope.
-- $1 scopes (text[])
select pg_advisory_xact_lock(hashtextextended(scope, 0)) from unnest($1::text[]) as scope order by scope
