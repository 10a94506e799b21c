-- Settles one metering batch in one statement and one transaction: see meter_settle() in
-- sql/functions/meter_settle.sql. Returns one row:
-- `settled` jsonb {r, changes}.
-- $1 the batch (jsonb, one named record of parallel arrays of text):
--   per request: id, team_id, environment, source, name, company_id, user_id, feature_id, quantity (integers as text),
--   traits (JSON text), idempotency_key, kind (record|deny|quota|credit), limit_amount and credits_per_use (integers as
--   text), counter_slot and credit_slot (1-based, null when none);
--   distinct counters: counter_team_id, counter_environment, counter_company_id, counter_feature_id, counter_period_start
--   (ISO text); distinct credit companies: credit_team_id, credit_environment, credit_company_id.
-- $2 now
select meter_settle(
  b.id, b.team_id, b.environment, b.source, b.name, b.company_id, b.user_id, b.feature_id,
  b.quantity::bigint[], b.traits::jsonb[], b.idempotency_key, b.kind, b.limit_amount::bigint[], b.credits_per_use::bigint[],
  b.counter_slot::int[], b.credit_slot::int[],
  b.counter_team_id, b.counter_environment, b.counter_company_id, b.counter_feature_id, b.counter_period_start::timestamptz[],
  b.credit_team_id, b.credit_environment, b.credit_company_id, $2::timestamptz
) as settled
from jsonb_to_record($1::jsonb) as b (
  id text[], team_id text[], environment text[], source text[], name text[], company_id text[], user_id text[],
  feature_id text[], quantity text[], traits text[], idempotency_key text[], kind text[], limit_amount text[],
  credits_per_use text[], counter_slot text[], credit_slot text[], counter_team_id text[], counter_environment text[],
  counter_company_id text[], counter_feature_id text[], counter_period_start text[], credit_team_id text[],
  credit_environment text[], credit_company_id text[]
)
