-- Every feature of a tenant that is not archived, for the in-memory catalog snapshot: an archived
-- feature grants nothing and meters nothing. Returns many rows.
-- $1 team_id, $2 environment
select id, name, feature_key, feature_type, event_key
from features
where team_id = $1 and environment = $2 and archived_at is null
