-- The lines of invoices of the tenant, in order. Returns many.
-- $1 team_id, $2 environment, $3 invoice ids text[]
select l.*
from invoice_lines l
join invoices i on i.id = l.invoice_id
where i.team_id = $1 and i.environment = $2 and l.invoice_id = any($3::text[])
order by l.invoice_id, l.position
