-- One page of companies, newest first; optional case-insensitive search over name, email and wallet.
-- Returns many.
-- $1 team_id, $2 environment, $3 before_seq (null: from the newest), $4 limit, $5 search pattern (ILIKE, null: all)
select id, external_id, name, email, wallet_address, logo_url, traits, active_plan_id, active_add_on_ids, billing_anchor, created_at, last_seen_at, seq
from companies
where team_id = $1 and environment = $2
  and ($3::int8 is null or seq < $3::int8)
  and ($5::text is null or name ilike $5::text or email ilike $5::text or wallet_address ilike $5::text)
order by seq desc
limit $4
