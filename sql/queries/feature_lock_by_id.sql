-- A feature by id, locked for the rest of the transaction: catalog writes that depend on the
-- feature's type (update, delete, entitlements, overrides) take this lock first, so they serialize.
-- Returns one row or none.
-- $1 team_id, $2 environment, $3 id
select id, name, feature_key, feature_type, event_key, icon, description, created_at, archived_at
from features
where team_id = $1 and environment = $2 and id = $3
for update
