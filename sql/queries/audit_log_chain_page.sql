-- One page of a tenant's audit chain in link order, each entry with its hash recomputed by
-- audit_entry_hash (the one definition of the formula, migration 00013). Returns many.
-- $1 team_id, $2 environment, $3 after_chain_seq (0: from the first entry), $4 limit
select a.id, a.chain_seq, a.prev_hash, a.hash, audit_entry_hash(a) as recomputed
from audit_log a
where a.team_id = $1 and a.environment = $2 and a.chain_seq > $3::int8
order by a.chain_seq
limit $4
