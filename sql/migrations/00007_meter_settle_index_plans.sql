-- meter_settle() joins each batch's keys (unnested from its array parameters) to usage_counters,
-- credit_grants and events. Its statements use generic plans (00005), in which PostgreSQL guesses ten
-- rows for every unnest() whatever the batch holds; against a table it believes small it then prefers
-- a hash join over a sequential scan of the whole table. On the bench (1000 counters) that meant two
-- full scans of usage_counters per batch, and a batch of one event cost the database ~1.3 ms of CPU
-- instead of ~0.5 ms; on a large table the guess can flip at any ANALYZE. These lookups are always a
-- few keys found through an index, so the function is planned that way: nested loops over its keys,
-- each an index lookup. The settings apply inside meter_settle() only.
-- A later `create or replace function meter_settle` drops every SET of the function: it must repeat
-- all four (test/db/migrations.test.ts checks them).
alter function meter_settle(
  text[], text[], text[], text[], text[], text[], text[], text[], bigint[], jsonb[], text[], text[], bigint[], bigint[],
  int[], int[], text[], text[], text[], text[], timestamptz[], text[], text[], text[], timestamptz
) set enable_hashjoin = off set enable_mergejoin = off set enable_seqscan = off;

-- Event ids begin with their creation time (src/lib/ids.ts newTimeOrderedId) so that inserts land on
-- the last pages of the primary key. That holds in byte order only: under a linguistic collation
-- (en_US and the like compare case last) neighbouring times interleave. Ids are opaque tokens, so
-- they are compared bytewise, which is also the cheapest comparison.
alter table events alter column id type text collate "C";
