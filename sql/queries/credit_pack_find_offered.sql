-- The pack a 402 offers: the tenant's live pack flagged offer_on_payment_required, when enabled. Returns one row or none.
-- $1 team_id, $2 environment
select id, key, name, credits, prices, offer_on_payment_required, enabled, archived_at, created_at, seq
from credit_packs
where team_id = $1 and environment = $2 and offer_on_payment_required and archived_at is null and enabled
