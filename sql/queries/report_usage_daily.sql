-- Accepted metered usage per feature per UTC day in [from, to), of one feature or of every feature. Returns many.
-- Summed per (feature, day) first, then named and formatted: the day is formatted once per group, not per event.
-- $1 team_id, $2 environment, $3 from (inclusive), $4 to (exclusive), $5 feature id (null: every feature)
select f.id as feature_id, f.feature_key, f.name, to_char(u.day, 'YYYY-MM-DD') as day, u.quantity
from (
  select e.feature_id, (e.sent_at at time zone 'UTC')::date as day, sum(e.quantity)::int8 as quantity
  from events e
  where e.team_id = $1 and e.environment = $2 and e.outcome = 'accepted' and e.feature_id is not null
    and e.sent_at >= $3 and e.sent_at < $4
    and ($5::text is null or e.feature_id = $5::text)
  group by 1, 2
) u
join features f on f.id = u.feature_id and f.team_id = $1 and f.environment = $2
order by f.feature_key, u.day
