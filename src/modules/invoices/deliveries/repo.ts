/** Typed access to invoice deliveries (sql/queries/invoice_delivery_*). */
import { queries, run, runOne, type Db } from "../../../db/queries";
import { newId } from "../../../lib/ids";
import type { Tenant } from "../../../lib/tenant";
import type { DeliveryChannel, DeliveryStatus, InvoiceDeliveryRow } from "../rows";

const Q = queries([
  "invoice_delivery_insert",
  "invoice_delivery_insert_webhook",
  "invoice_delivery_find_by_id",
  "invoice_delivery_record_attempt",
  "invoice_delivery_find_message",
]);

export type DeliveryTrigger = InvoiceDeliveryRow["trigger"];

export const insertDelivery = (
  db: Db,
  t: Tenant,
  d: { invoiceId: string; channel: DeliveryChannel; destination: string; trigger: DeliveryTrigger },
  now: Date,
) =>
  runOne<InvoiceDeliveryRow>(db, Q.invoice_delivery_insert, [
    newId("idl"),
    t.teamId,
    t.environment,
    d.invoiceId,
    d.channel,
    d.destination,
    d.trigger,
    now,
  ]) as Promise<InvoiceDeliveryRow>;

/** One webhook row per webhook delivery (of the invoice's message), in one statement. */
export const insertWebhookDeliveries = (
  db: Db,
  t: Tenant,
  { invoiceId, trigger, webhookDeliveryIds }: { invoiceId: string; trigger: DeliveryTrigger; webhookDeliveryIds: readonly string[] },
  now: Date,
) =>
  webhookDeliveryIds.length === 0
    ? Promise.resolve([])
    : run<InvoiceDeliveryRow>(db, Q.invoice_delivery_insert_webhook, [
        t.teamId,
        t.environment,
        invoiceId,
        trigger,
        webhookDeliveryIds.map(() => newId("idl")),
        [...webhookDeliveryIds],
        now,
      ]);

export const findDelivery = (db: Db, t: Tenant, id: string) =>
  runOne<InvoiceDeliveryRow>(db, Q.invoice_delivery_find_by_id, [t.teamId, t.environment, id]);

/** Records an attempt of a PENDING delivery; undefined when it was no longer PENDING (another run settled it). */
export const recordAttempt = (db: Db, t: Tenant, a: { id: string; status: DeliveryStatus; lastError: string | null }, now: Date) =>
  runOne<InvoiceDeliveryRow>(db, Q.invoice_delivery_record_attempt, [t.teamId, t.environment, a.id, a.status, a.lastError, now]);

/** The id of the webhook message that carries the invoice to the team's endpoints, if it was ever written. */
export const findInvoiceMessage = async (db: Db, t: Tenant, invoiceId: string) =>
  (await runOne<{ webhook_message_id: string }>(db, Q.invoice_delivery_find_message, [t.teamId, t.environment, invoiceId]))?.webhook_message_id ??
  null;
