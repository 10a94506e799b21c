-- invoice_delivery_mirror(): the AFTER UPDATE trigger of webhook_deliveries (created by migration 00023)
-- that copies a webhook delivery's state onto the invoice delivery rows it carries: pending -> PENDING,
-- delivered -> SENT (sent_at = delivered_at), failed or skipped (endpoint disabled) -> FAILED; attempts as
-- counted there; last_error the delivery's error, or its last HTTP status, while it is not delivered.
-- Only rows of the delivery's own tenant are touched.
create or replace function invoice_delivery_mirror() returns trigger
language plpgsql
as $$
begin
  update invoice_deliveries
  set status = case new.status when 'delivered' then 'SENT' when 'pending' then 'PENDING' else 'FAILED' end,
      attempts = new.attempts,
      last_error = case when new.status = 'delivered' then null
                        else coalesce(new.last_error, 'HTTP ' || new.last_status_code::text) end,
      sent_at = case when new.status = 'delivered' then new.delivered_at end,
      updated_at = new.updated_at
  where webhook_delivery_id = new.id and team_id = new.team_id and environment = new.environment;
  return null;
end
$$;
