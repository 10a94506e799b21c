-- One page of the tenant's verified zkTLS proofs, newest first, optionally of one company and one provider.
-- Returns many.
-- $1 team_id, $2 environment, $3 before_seq (null: from the newest), $4 limit, $5 company_id (null: all),
-- $6 provider (null: all)
select id, company_id, provider, identifier, owner, claimed_at, epoch, parameters, context, signers, created_at, seq
from zktls_proofs
where team_id = $1 and environment = $2
  and ($3::int8 is null or seq < $3::int8)
  and ($5::text is null or company_id = $5::text)
  and ($6::text is null or provider = $6::text)
order by seq desc
limit $4
