-- Archives a credit pack (a second archive keeps the first instant). Returns one row or none.
-- $1 team_id, $2 environment, $3 id, $4 now
update credit_packs set archived_at = coalesce(archived_at, $4::timestamptz), updated_at = $4::timestamptz
where team_id = $1 and environment = $2 and id = $3
returning id, key, name, credits, prices, offer_on_payment_required, enabled, archived_at, created_at, seq
