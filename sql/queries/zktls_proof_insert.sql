-- Stores a verified zkTLS proof, unless its identifier was stored before (by any team: a replay). Returns the row,
-- or none on a replay.
-- $1 id, $2 team_id, $3 environment, $4 company_id (null: none), $5 identifier, $6 signers,
-- $7 created_at, $8 the claim {provider, owner, timestampS, epoch, parameters, context} (jsonb)
insert into zktls_proofs (id, team_id, environment, company_id, provider, identifier, owner, claimed_at, epoch, parameters, context, signers, created_at)
values (
  $1, $2, $3, $4,
  $8::jsonb ->> 'provider', $5, lower($8::jsonb ->> 'owner'),
  to_timestamp(($8::jsonb ->> 'timestampS')::float8), ($8::jsonb ->> 'epoch')::int4,
  $8::jsonb ->> 'parameters', $8::jsonb ->> 'context', $6::text[], $7
)
on conflict (identifier) do nothing
returning id, company_id, provider, identifier, owner, claimed_at, epoch, parameters, context, signers, created_at, seq
