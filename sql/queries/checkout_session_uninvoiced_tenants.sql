-- The tenants that have paid checkout sessions without an invoice, across every team (the backfill run for
-- all teams; each tenant is then backfilled with tenant-filtered statements). Returns many.
select distinct p.team_id, p.environment
from payments p
join checkout_sessions s on s.id = p.checkout_session_id and s.team_id = p.team_id and s.environment = p.environment
where s.status = 'PAID' and p.invoice_id is null
order by p.team_id, p.environment
