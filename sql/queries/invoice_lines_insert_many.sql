-- Writes an invoice's lines, positions 0..n-1 in array order (nothing when the invoice is not the tenant's). Returns none.
-- $1 team_id, $2 environment, $3 invoice_id, $4 kinds text[], $5 descriptions text[], $6 quantities int8[],
-- $7 unit_amounts int8[], $8 tax_rates int4[], $9 subtotals int8[], $10 taxes int8[], $11 totals int8[],
-- $12 plan_ids text[], $13 period_starts timestamptz[], $14 period_ends timestamptz[]
insert into invoice_lines (invoice_id, position, kind, description, quantity, unit_amount, tax_rate, line_subtotal,
                           line_tax, line_total, plan_id, period_start, period_end)
select i.id, l.ord - 1, l.kind, l.description, l.quantity, l.unit_amount, l.tax_rate, l.line_subtotal, l.line_tax, l.line_total,
       l.plan_id, l.period_start, l.period_end
from invoices i,
     unnest($4::text[], $5::text[], $6::int8[], $7::int8[], $8::int4[], $9::int8[], $10::int8[], $11::int8[], $12::text[],
            $13::timestamptz[], $14::timestamptz[])
       with ordinality as l(kind, description, quantity, unit_amount, tax_rate, line_subtotal, line_tax, line_total, plan_id,
                            period_start, period_end, ord)
where i.team_id = $1 and i.environment = $2 and i.id = $3
