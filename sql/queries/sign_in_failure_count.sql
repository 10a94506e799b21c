-- Failed sign-ins per scope since a time, with the oldest of them (when the window frees a slot).
-- Scopes are accounts and client addresses, not tenants. Returns one row per scope that has failures.
-- $1 scopes (text[]), $2 since
select scope, count(*)::int as failures, min(failed_at) as oldest
from sign_in_failures
where scope = any($1) and failed_at > $2
group by scope
