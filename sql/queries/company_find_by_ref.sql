-- The company named by our id or the integrator's (external) id, unlocked. Returns one row or none.
-- $1 team_id, $2 environment, $3 id or external id
select id, external_id, name, email, wallet_address
from companies
where team_id = $1 and environment = $2 and (id = $3 or external_id = $3)
order by case when id = $3 then 0 else 1 end
limit 1
