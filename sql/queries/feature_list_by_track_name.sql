-- Other features of the tenant that a track event name already points at: those whose feature_key
-- or event_key equals one of the names. Returns many.
-- $1 team_id, $2 environment, $3 id of the feature to leave out, $4 names (text[])
select id, name, feature_key, event_key
from features
where team_id = $1 and environment = $2 and id <> $3
  and (feature_key = any($4::text[]) or (event_key <> '' and event_key = any($4::text[])))
order by seq
