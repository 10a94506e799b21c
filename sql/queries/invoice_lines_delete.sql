-- Removes a draft's lines before they are written again. Returns none.
-- $1 team_id, $2 environment, $3 invoice_id
delete from invoice_lines l
using invoices i
where i.id = l.invoice_id and i.team_id = $1 and i.environment = $2 and l.invoice_id = $3
