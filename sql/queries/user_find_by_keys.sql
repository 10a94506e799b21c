-- The user matching any of its keys: our id or the integrator's id, then idp_user_id, wallet, email.
-- Locks the row for the upsert that follows. Returns one row or none.
-- $1 team_id, $2 environment, $3 id or external id, $4 idp_user_id, $5 wallet_address, $6 email
select id, external_id, idp_user_id, name, email, wallet_address, traits, created_at, last_seen_at, seq
from users
where team_id = $1 and environment = $2
  and (id = $3 or external_id = $3 or idp_user_id = $4 or lower(wallet_address) = lower($5) or lower(email) = lower($6))
order by case when id = $3 then 0 when external_id = $3 then 1 when idp_user_id = $4 then 2 when lower(wallet_address) = lower($5) then 3 else 4 end
limit 1
for update
