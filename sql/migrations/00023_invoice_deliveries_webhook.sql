-- Invoice deliveries by webhook (README "Invoice deliveries"). The webhook channel is not a second sender:
-- an invoice goes to the team's endpoints as its `invoice.issued` message, through the webhook outbox
-- (signing, the retry schedule of about a day, endpoint disabling, the delivery log, replay). A webhook row
-- of invoice_deliveries names the message and the webhook delivery that carries it to one endpoint, and
-- mirrors that delivery's state (the trigger below), so the invoice's history reads the same for both
-- channels.
alter table invoice_deliveries
  add column webhook_message_id   text references webhook_messages (id),
  -- set null when the endpoint (and with it its delivery log) is deleted: the row keeps its last state
  add column webhook_delivery_id  text references webhook_deliveries (id) on delete set null,
  add constraint invoice_deliveries_webhook_link
    check (channel = 'webhook' or (webhook_message_id is null and webhook_delivery_id is null));
create index invoice_deliveries_webhook on invoice_deliveries (webhook_delivery_id) where webhook_delivery_id is not null;

-- The function's body lives in sql/functions/invoice_delivery_mirror.sql (applied after the migrations, in
-- the same transaction); CREATE TRIGGER needs a function to exist now, hence this placeholder, which never runs.
create function invoice_delivery_mirror() returns trigger
language plpgsql
as $$
begin
  raise exception 'invoice_delivery_mirror is defined in sql/functions/invoice_delivery_mirror.sql, which was not applied';
end
$$;

create trigger invoice_delivery_mirror after update on webhook_deliveries for each row
  when (old.status is distinct from new.status or old.attempts is distinct from new.attempts)
  execute function invoice_delivery_mirror();
