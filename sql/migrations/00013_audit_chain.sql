-- Tamper-evident audit log (issue 19, part 5): each entry carries the hash of the one before it in its
-- tenant's chain (team + environment), so editing, deleting or reordering an entry breaks the chain at
-- that point (`npm run cli -- audit verify`, src/modules/audit/verify.ts).
--
--   chain_seq  1, 2, 3... per tenant: the order entries were linked. Not `seq`: identity values are drawn
--              before any lock, so two concurrent transactions can commit seq out of link order.
--   prev_hash  the previous entry's hash; 64 zeros for the first entry of a chain
--   hash       audit_entry_hash(the entry), hex SHA-256
--
-- audit_entry_hash is defined here and not in sql/functions on purpose: it is the format of data already
-- stored, not code. Changing it would break every existing chain, and a migration is exactly what cannot
-- change (checksummed, forward-only); a function file would be re-applied silently when edited. It is also
-- needed by the backfill below, and no migration may use a function from sql/functions (they are applied
-- after all migrations). It is the ONE definition of the formula: the linking trigger and the verification
-- query both call it.
--
-- What is hashed: a JSON array, as jsonb text (unambiguous: every string quoted and escaped, nulls are null;
-- canonical: jsonb prints object keys in one fixed order and no insignificant whitespace choice of ours),
-- of a format tag, the link fields and every column a reader sees, created_at to the microsecond in UTC.
alter table audit_log
  add column chain_seq bigint,
  add column prev_hash text,
  add column hash      text;

create function audit_entry_hash(e audit_log) returns text
language sql stable
as $$
  select encode(sha256(convert_to(jsonb_build_array(
    'audit-v1', e.prev_hash, e.chain_seq, e.id, e.team_id, e.environment, e.actor_kind, e.actor_id, e.action,
    e.resource_type, e.resource_id, e.request_id, e.details,
    to_char(e.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')
  )::text, 'UTF8')), 'hex')
$$;

-- Entries written before this migration become a valid chain, per tenant in seq order (the best order they
-- have), so an upgraded deployment verifies from its first entry. ALTER TABLE above holds the table's
-- exclusive lock until this transaction commits: no entry is written meanwhile.
do $$
declare
  e audit_log;
  n bigint;
  prev text;
  chain_team text;
  chain_env text;
begin
  for e in select * from audit_log order by team_id, environment, seq loop
    if chain_team is distinct from e.team_id or chain_env is distinct from e.environment then
      chain_team := e.team_id;
      chain_env := e.environment;
      n := 0;
      prev := repeat('0', 64);
    end if;
    n := n + 1;
    e.chain_seq := n;
    e.prev_hash := prev;
    prev := audit_entry_hash(e);
    update audit_log set chain_seq = n, prev_hash = e.prev_hash, hash = prev where id = e.id;
  end loop;
end $$;

alter table audit_log
  alter column chain_seq set not null,
  alter column prev_hash set not null,
  alter column hash set not null,
  add constraint audit_log_chain unique (team_id, environment, chain_seq);

-- Linking happens in the database, so every insert path is covered (recordAudit or anything else). The
-- function's body lives in sql/functions/audit_log_link.sql (applied after the migrations, in the same
-- transaction, before anything can insert); CREATE TRIGGER needs a function to exist now, hence this
-- placeholder, which never runs.
create function audit_log_link() returns trigger
language plpgsql
as $$
begin
  raise exception 'audit_log_link is defined in sql/functions/audit_log_link.sql, which was not applied';
end
$$;

create trigger audit_log_link before insert on audit_log for each row execute function audit_log_link();
