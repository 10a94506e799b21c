-- Settles one metering batch in one statement and one transaction: see meter_settle() in
-- sql/functions/meter_settle.sql. Returns one row:
-- `settled` jsonb {r, changes}.
-- Per request (parallel arrays): $1 id[], $2 team_id[], $3 environment[], $4 source[], $5 name[], $6 company_id[],
-- $7 user_id[], $8 feature_id[], $9 quantity[] as text, $10 traits[] as JSON text, $11 idempotency_key[],
-- $12 kind[] (record|deny|quota|credit), $13 limit[] as text, $14 credits_per_use[] as text,
-- $15 counter slot[], $16 credit slot[] as text (1-based, null when none);
-- distinct counters: $17 team_id[], $18 environment[], $19 company_id[], $20 feature_id[], $21 period_start[] as ISO text;
-- distinct credit companies: $22 team_id[], $23 environment[], $24 company_id[]; $25 now
select meter_settle(
  $1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[],
  $9::text[]::bigint[], $10::text[]::jsonb[], $11::text[], $12::text[], $13::text[]::bigint[], $14::text[]::bigint[],
  $15::text[]::int[], $16::text[]::int[],
  $17::text[], $18::text[], $19::text[], $20::text[], $21::text[]::timestamptz[],
  $22::text[], $23::text[], $24::text[], $25::timestamptz
) as settled
