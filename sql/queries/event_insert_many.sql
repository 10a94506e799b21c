-- Records a batch of metered events (accepted and refused), acknowledged only after commit. The
-- unique index on idempotency keys turns a racing duplicate into an error that retries the batch. Returns none.
-- $1 id[], $2 team_id[], $3 environment[], $4 source[], $5 name[], $6 company_id[], $7 user_id[], $8 feature_id[],
-- $9 quantity[] as text, $10 credits_burned[] as text, $11 outcome[], $12 traits[] as JSON text,
-- $13 idempotency_key[], $14 sent_at[] as ISO text (parallel arrays)
insert into events (id, team_id, environment, source, event_type, name, company_id, user_id, feature_id,
                    quantity, credits_burned, outcome, traits, idempotency_key, sent_at)
select v.id, v.team_id, v.environment, v.source, 'track', v.name, v.company_id, v.user_id, v.feature_id,
       v.quantity::bigint, v.credits_burned::bigint, v.outcome, v.traits::jsonb, v.idempotency_key, v.sent_at::timestamptz
from unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[],
            $9::text[], $10::text[], $11::text[], $12::text[], $13::text[], $14::text[])
  as v (id, team_id, environment, source, name, company_id, user_id, feature_id, quantity, credits_burned, outcome, traits, idempotency_key, sent_at)
