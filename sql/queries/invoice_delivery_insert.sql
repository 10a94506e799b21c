-- A delivery of an invoice to one destination, PENDING with no attempt yet. Returns one row.
-- $1 id, $2 team_id, $3 environment, $4 invoice_id, $5 channel, $6 destination, $7 trigger, $8 now
insert into invoice_deliveries (id, team_id, environment, invoice_id, channel, destination, trigger, status, created_at, updated_at)
values ($1, $2, $3, $4, $5, $6, $7, 'PENDING', $8, $8)
returning *
