-- Forgets the stored insufficient-credit refusal of an idempotency key, in the transaction that granted credits
-- bought for the request carrying it (docs/x402.md#idempotency): the paid retry is then decided afresh instead of
-- replaying the refusal. Other outcomes stand. Returns none.
-- $1 team_id, $2 environment, $3 source ('events' or 'consume'), $4 company_id, $5 idempotency_key
delete from events
where team_id = $1 and environment = $2 and source = $3 and idempotency_key = $5 and coalesce(company_id, '') = $4
  and outcome = 'insufficient_credits'
