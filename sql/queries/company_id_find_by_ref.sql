-- Our id of a company named by our comp_ id or the integrator's id, without a lock (the cache's read path;
-- company_find_by_keys is the locking lookup for writes). Returns one row or none.
-- $1 team_id, $2 environment, $3 comp_ id or external id
select id
from companies
where team_id = $1 and environment = $2 and (id = $3 or external_id = $3)
order by (id = $3) desc
limit 1
