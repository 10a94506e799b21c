-- Creates a feature. Returns one row.
-- $1 id, $2 team_id, $3 environment, $4 name, $5 feature_key, $6 feature_type, $7 event_key, $8 icon, $9 description
insert into features (id, team_id, environment, name, feature_key, feature_type, event_key, icon, description)
values ($1, $2, $3, $4, $5, $6, $7, $8, $9)
returning id, name, feature_key, feature_type, event_key, icon, description, created_at, archived_at
