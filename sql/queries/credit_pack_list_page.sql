-- A page of credit packs, newest first. Returns many.
-- $1 team_id, $2 environment, $3 before seq (null: from the newest), $4 rows to fetch, $5 include archived (boolean)
select id, key, name, credits, prices, offer_on_payment_required, enabled, archived_at, created_at, seq
from credit_packs
where team_id = $1 and environment = $2
  and ($3::bigint is null or seq < $3::bigint)
  and ($5::boolean or archived_at is null)
order by seq desc
limit $4
