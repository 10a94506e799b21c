-- A company named by our comp_ id or the integrator's id, without a lock (the dashboard's read of one company).
-- Returns one row or none.
-- $1 team_id, $2 environment, $3 comp_ id or external id
select id, external_id, name, email, wallet_address, logo_url, traits, active_plan_id, active_add_on_ids, billing_anchor, created_at, last_seen_at, seq
from companies
where team_id = $1 and environment = $2 and (id = $3 or external_id = $3)
order by (id = $3) desc
limit 1
