-- Our id of the company matching any of its keys, in company_find_by_keys' order of preference, without
-- a lock: the read that decides whether a metered track may go ahead before anything is written.
-- Returns one row or none.
-- $1 team_id, $2 environment, $3 id or external id, $4 wallet_address, $5 email
select id
from companies
where team_id = $1 and environment = $2
  and (id = $3 or external_id = $3 or lower(wallet_address) = lower($4) or lower(email) = lower($5))
order by case when id = $3 then 0 when external_id = $3 then 1 when lower(wallet_address) = lower($4) then 2 else 3 end
limit 1
