-- Creates a credit pack. Returns one row (none when the key is taken in any case; a second offered live pack
-- raises the unique violation of credit_packs_offered, which the caller answers 409).
-- $1 id, $2 team_id, $3 environment, $4 now, $5 the pack (jsonb, keys named as the columns: key, name, credits
-- (an integer string), prices (array of {network, token, amount}), offer_on_payment_required, enabled)
insert into credit_packs (id, team_id, environment, key, name, credits, prices, offer_on_payment_required, enabled, created_at, updated_at)
select $1, $2, $3, p.key, p.name, p.credits, p.prices, p.offer_on_payment_required, p.enabled, $4::timestamptz, $4::timestamptz
from jsonb_populate_record(null::credit_packs, $5::jsonb) p
on conflict (team_id, environment, lower(key)) do nothing
returning id, key, name, credits, prices, offer_on_payment_required, enabled, archived_at, created_at, seq
