-- Webhook rows of an invoice: one per webhook delivery of its message (destination: the delivery's endpoint),
-- PENDING until the webhook delivery's state is mirrored onto it (sql/functions/invoice_delivery_mirror.sql).
-- Returns many.
-- $1 team_id, $2 environment, $3 invoice_id, $4 trigger, $5 row ids (text[]), $6 webhook delivery ids (text[],
-- same order), $7 now
insert into invoice_deliveries (id, team_id, environment, invoice_id, channel, destination, trigger, status,
                                webhook_message_id, webhook_delivery_id, created_at, updated_at)
select x.id, d.team_id, d.environment, $3, 'webhook', d.endpoint_id, $4, 'PENDING', d.message_id, d.id, $7, $7
from unnest($5::text[], $6::text[]) as x (id, delivery_id)
join webhook_deliveries d on d.id = x.delivery_id
where d.team_id = $1 and d.environment = $2
order by x.id
returning *
