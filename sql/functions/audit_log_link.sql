-- audit_log_link(): the BEFORE INSERT trigger of audit_log (created by migration 00013) that links each new
-- entry to its tenant's chain: chain_seq = last + 1, prev_hash = the last entry's hash (64 zeros for the
-- first), hash = audit_entry_hash(the entry) (the one definition of the formula, in migration 00013).
-- Values a caller supplies for these three columns are overwritten.
--
-- The advisory lock serializes the audited writes of ONE tenant from here until their transaction ends
-- (other tenants take other locks): the next writer waits for this one's commit or rollback, then reads
-- the last entry with a fresh snapshot (READ COMMITTED, each statement of a volatile function takes one),
-- so chain_seq is contiguous, in commit order, and a rolled-back entry leaves no hole. Under REPEATABLE
-- READ the last entry could be invisible; the unique (team_id, environment, chain_seq) then refuses the
-- insert rather than forking the chain. The key is a hash of the tenant, in its own namespace
-- ('audit-chain/'); a collision between two tenants only makes them wait for each other.
create or replace function audit_log_link() returns trigger
language plpgsql
as $$
declare
  last_seq bigint;
  last_hash text;
begin
  perform pg_advisory_xact_lock(hashtextextended('audit-chain/' || new.team_id || '/' || new.environment, 0));
  select chain_seq, hash into last_seq, last_hash
  from audit_log
  where team_id = new.team_id and environment = new.environment
  order by chain_seq desc
  limit 1;
  new.chain_seq := coalesce(last_seq, 0) + 1;
  new.prev_hash := coalesce(last_hash, repeat('0', 64));
  new.hash := audit_entry_hash(new);
  return new;
end
$$;
