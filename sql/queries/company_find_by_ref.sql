-- A company by our id or the integrator's external id (our id wins), locked for the update that
-- follows. Returns one row or none.
-- $1 team_id, $2 environment, $3 our id or external id
select id, external_id, name, email, wallet_address, logo_url, traits, active_plan_id, active_add_on_ids,
       billing_anchor, created_at, last_seen_at, seq
from companies
where team_id = $1 and environment = $2 and (id = $3 or external_id = $3)
order by case when id = $3 then 0 else 1 end
limit 1
for update
