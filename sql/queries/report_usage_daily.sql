-- Accepted metered usage per feature per UTC day in [from, to), of one feature or of every feature. Returns many.
-- $1 team_id, $2 environment, $3 from (inclusive), $4 to (exclusive), $5 feature id (null: every feature)
select f.id as feature_id, f.feature_key, f.name,
       to_char(e.sent_at at time zone 'UTC', 'YYYY-MM-DD') as day,
       sum(e.quantity)::int8 as quantity
from events e
join features f on f.id = e.feature_id and f.team_id = e.team_id and f.environment = e.environment
where e.team_id = $1 and e.environment = $2 and e.outcome = 'accepted'
  and e.sent_at >= $3 and e.sent_at < $4
  and ($5::text is null or e.feature_id = $5::text)
group by f.id, f.feature_key, f.name, day
order by f.feature_key, day
