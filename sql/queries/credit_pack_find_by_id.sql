-- A credit pack by id, archived or not. Returns one row or none.
-- $1 team_id, $2 environment, $3 id
select id, key, name, credits, prices, offer_on_payment_required, enabled, archived_at, created_at, seq
from credit_packs where team_id = $1 and environment = $2 and id = $3
