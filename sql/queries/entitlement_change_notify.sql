-- Broadcasts a change that entitlement caches on every instance must apply (delivered at commit,
-- in commit order). The payload names its tenant: see src/modules/changes/publish.ts. Returns one row.
-- $1 payload (JSON text, under 8000 bytes)
select pg_notify('entitlement_changes', $1)
