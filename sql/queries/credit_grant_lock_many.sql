-- Locks the spendable credit grants of these companies, in burn order: soonest-expiring first,
-- never-expiring last, then oldest. Returns many rows.
-- $1 team_id[], $2 environment[], $3 company_id[] (parallel arrays), $4 now
select g.id, g.team_id, g.environment, g.company_id, g.remaining, g.expires_at
from credit_grants g
join unnest($1::text[], $2::text[], $3::text[]) as k (team_id, environment, company_id)
  on g.team_id = k.team_id and g.environment = k.environment and g.company_id = k.company_id
where g.remaining > 0 and (g.expires_at is null or g.expires_at > $4)
order by g.team_id, g.environment, g.company_id, g.expires_at nulls last, g.created_at, g.id
for update of g
