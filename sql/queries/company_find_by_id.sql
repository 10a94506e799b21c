-- A company by our id. Returns one row or none.
-- $1 team_id, $2 environment, $3 id
select id, external_id, name, email, wallet_address, logo_url, traits, active_plan_id, active_add_on_ids, created_at, last_seen_at, seq
from companies
where team_id = $1 and environment = $2 and id = $3
