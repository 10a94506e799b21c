-- One page of accepted usage events, newest first, optionally for one company. Returns many.
-- $1 team_id, $2 environment, $3 before_seq (null: from the newest), $4 limit, $5 company_id (null: all)
select id, name, company_id, user_id, traits, sent_at, seq
from events
where team_id = $1 and environment = $2 and outcome = 'accepted'
  and ($3::int8 is null or seq < $3::int8)
  and ($5::text is null or company_id = $5::text)
order by seq desc
limit $4
