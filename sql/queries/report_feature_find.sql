-- The feature a usage report asks for, by its id or its featureKey. Returns one row or none.
-- $1 team_id, $2 environment, $3 id or featureKey
select id, feature_key, name
from features
where team_id = $1 and environment = $2 and (id = $3 or feature_key = $3)
order by (id = $3) desc
limit 1
