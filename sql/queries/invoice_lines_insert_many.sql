-- Writes an invoice's lines, positions 0..n-1 in array order (nothing when the invoice is not the tenant's). Returns none.
-- $1 team_id, $2 environment, $3 invoice_id,
-- $4 the lines as one jsonb array of records, keys named as the columns: kind, description, quantity, unit_amount, tax_rate,
--    line_subtotal, line_tax, line_total, plan_id, period_start, period_end (numbers as strings, instants as ISO text)
insert into invoice_lines (invoice_id, position, kind, description, quantity, unit_amount, tax_rate, line_subtotal,
                           line_tax, line_total, plan_id, period_start, period_end)
select i.id, l.ordinality - 1, l.kind, l.description, l.quantity, l.unit_amount, l.tax_rate, l.line_subtotal, l.line_tax,
       l.line_total, l.plan_id, l.period_start, l.period_end
from invoices i,
     jsonb_populate_recordset(null::invoice_lines, $4::jsonb) with ordinality as l
where i.team_id = $1 and i.environment = $2 and i.id = $3
