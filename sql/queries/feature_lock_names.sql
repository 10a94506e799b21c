-- Serializes changes to one tenant's track names (feature keys and event keys) until the transaction
-- ends, so two concurrent writes cannot both claim one name across the two columns (the unique
-- indexes guard each column alone). Returns one row.
-- $1 team_id, $2 environment
select pg_advisory_xact_lock(hashtextextended('feature-names/' || k.team_id || '/' || k.environment, 0)) as locked
from (select $1::text as team_id, $2::text as environment) as k
