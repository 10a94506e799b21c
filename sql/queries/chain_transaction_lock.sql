-- Serializes every transaction that records an on-chain transaction (a checkout payment, an invoice payment proof,
-- a refund) on its (network, hash) until the caller's transaction ends, for any team: one transaction proves one
-- thing anywhere, and payments and refunds keep their hashes in two tables whose unique indexes cannot see each
-- other. Taken first in each such transaction (src/chains/claims.ts), so two writers never wait on each other in
-- a cycle. Returns one row.
-- $1 network, $2 tx_hash
select pg_advisory_xact_lock(hashtextextended('chain-tx/' || $1::text || '/' || $2::text, 0)) as locked
