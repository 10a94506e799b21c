-- The enabled endpoints an event goes to: subscribed to its type (an empty filter takes all), or only the
-- one named (the test event, whatever its filter). Returns many (ids).
-- $1 team_id, $2 environment, $3 event type, $4 only this endpoint id (null: every subscribed one)
select id
from webhook_endpoints
where team_id = $1 and environment = $2 and enabled
  and (case when $4::text is null then (cardinality(event_types) = 0 or $3::text = any (event_types)) else id = $4::text end)
