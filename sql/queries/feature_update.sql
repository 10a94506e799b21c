-- Replaces a feature's editable fields (the caller has merged the partial update into the locked
-- row). feature_key never changes. Returns one row or none.
-- $1 team_id, $2 environment, $3 id, $4 name, $5 feature_type, $6 event_key, $7 icon, $8 description
update features
set name = $4, feature_type = $5, event_key = $6, icon = $7, description = $8
where team_id = $1 and environment = $2 and id = $3
returning id, name, feature_key, feature_type, event_key, icon, description, created_at, archived_at
