-- meter_settle()'s planner settings (nested loops over its keys) were set here; they are now stated in
-- sql/functions/meter_settle.sql, where the function is defined.

-- Event ids begin with their creation time (src/lib/ids.ts newTimeOrderedId) so that inserts land on
-- the last pages of the primary key. That holds in byte order only: under a linguistic collation
-- (en_US and the like compare case last) neighbouring times interleave. Ids are opaque tokens, so
-- they are compared bytewise, which is also the cheapest comparison.
alter table events alter column id type text collate "C";
