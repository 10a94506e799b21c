-- The company matching any of its keys, preferring our id, then the integrator's id, then wallet,
-- then email. Locks the row for the upsert that follows. Returns one row or none.
-- $1 team_id, $2 environment, $3 id or external id, $4 wallet_address, $5 email
select id, external_id, name, email, wallet_address, logo_url, traits, active_plan_id, active_add_on_ids, billing_anchor, created_at, last_seen_at, seq
from companies
where team_id = $1 and environment = $2
  and (id = $3 or external_id = $3 or lower(wallet_address) = lower($4) or lower(email) = lower($5))
order by case when id = $3 then 0 when external_id = $3 then 1 when lower(wallet_address) = lower($4) then 2 else 3 end
limit 1
for update
