/**
 * Sending an issued invoice again, on demand (POST /dashboard/invoices/{id}/send, `invoice send`), in the
 * caller's transaction: its delivery rows, their jobs and the audit entry commit together.
 * - email (the default): to `to`, else the invoice's customer email, one address (address.ts); needs SMTP_URL.
 * - webhook: the invoice's `invoice.issued` message to every enabled endpoint subscribed to invoice.issued,
 *   as a new webhook delivery each. It is the SAME message (same `webhook-id`, as a replay): a receiver that
 *   already has it can recognise it, one that missed it (down, disabled, added since) gets it. When no
 *   endpoint was subscribed at the issue, the message was never written; it is written now, dated at the
 *   issue, with the invoice as it is now.
 */
import { apiError } from "../../../lib/errors";
import { newId } from "../../../lib/ids";
import { recordAudit } from "../../audit/repo";
import { insertDelivery as insertWebhookDelivery } from "../../webhooks/deliveries/repo";
import { enqueueAttempt } from "../../webhooks/emit";
import { listTargets } from "../../webhooks/endpoints/repo";
import { emitInvoiceEvent, lockOr404 } from "../lifecycle/transitions";
import type { InvoiceContext } from "../lifecycle/context";
import type { DeliveryChannel, InvoiceDeliveryRow, InvoiceRow, InvoiceStatus } from "../rows";
import { isSingleAddress, NOT_SINGLE_ADDRESS } from "./address";
import { queueEmail } from "./queue";
import { findInvoiceMessage, insertWebhookDeliveries } from "./repo";

/** What can be sent: an invoice with a number that is not void (a draft is not an invoice yet). */
export const SENDABLE_STATUSES: readonly InvoiceStatus[] = ["ISSUED", "OVERDUE", "PAID"];

export interface SendInput {
  channel?: DeliveryChannel;
  /** email only: the recipient (default: the invoice's customer email) */
  to?: string;
}

/** Queues the sends; returns the new delivery rows (one email, or one per endpoint). */
export async function sendInvoice(c: InvoiceContext, id: string, input: SendInput): Promise<InvoiceDeliveryRow[]> {
  const channel = input.channel ?? "email";
  if (channel === "webhook" && input.to !== undefined)
    throw apiError("validation_failed", "Validation failed", {
      "body.to": "Only with channel email: a webhook goes to the endpoints subscribed to invoice.issued",
    });
  const invoice = await lockOr404(c, id);
  if (!SENDABLE_STATUSES.includes(invoice.status))
    throw apiError("invoice_not_sendable", `Invoice ${invoice.number} is ${invoice.status}; only an issued, overdue or paid invoice can be sent`);
  const rows = channel === "email" ? [await sendByEmail(c, invoice, input.to)] : await sendByWebhook(c, invoice);
  await recordAudit(c.tx, {
    ...c.tenant,
    actor: c.actor,
    action: "invoice.send",
    resourceType: "invoice",
    resourceId: id,
    details: { channel, deliveryIds: rows.map((r) => r.id) },
  });
  return rows;
}

async function sendByEmail(c: InvoiceContext, invoice: InvoiceRow, to: string | undefined) {
  if (!c.emailEnabled) throw apiError("delivery_channel_unavailable", "Email is not configured on this service (SMTP_URL)");
  const recipient = to ?? invoice.customer_email;
  if (!recipient)
    throw apiError("validation_failed", "Validation failed", { "body.to": "The invoice has no customer email: give the address to send it to" });
  if (!isSingleAddress(recipient))
    throw apiError("validation_failed", "Validation failed", {
      "body.to": to === undefined ? `The invoice's customer email is not one address: give \`to\`. ${NOT_SINGLE_ADDRESS}` : NOT_SINGLE_ADDRESS,
    });
  return queueEmail(c, invoice.id, recipient, "manual");
}

async function sendByWebhook(c: InvoiceContext, invoice: InvoiceRow) {
  const endpoints = await listTargets(c.tx, c.tenant, "invoice.issued", null);
  if (endpoints.length === 0) throw apiError("delivery_channel_unavailable", "No enabled webhook endpoint is subscribed to invoice.issued");
  const messageId = await findInvoiceMessage(c.tx, c.tenant, invoice.id);
  let deliveryIds: string[];
  if (messageId) {
    deliveryIds = [];
    for (const endpointId of endpoints) {
      const { id } = (await insertWebhookDelivery(c.tx, c.tenant, { id: newId("dlv"), endpointId, messageId }, c.now))!;
      await enqueueAttempt(c, id, 1);
      deliveryIds.push(id);
    }
  } else {
    deliveryIds = (await emitInvoiceEvent({ ...c, now: invoice.issued_at! }, "invoice.issued", invoice)).deliveryIds;
  }
  return insertWebhookDeliveries(c.tx, c.tenant, { invoiceId: invoice.id, trigger: "manual", webhookDeliveryIds: deliveryIds }, c.now);
}
