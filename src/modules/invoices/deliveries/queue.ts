/**
 * Deliveries made when an invoice is issued, in the issuing transaction (docs/invoices.md#invoice-deliveries):
 * - webhook: one row per webhook delivery of the invoice's `invoice.issued` message (each enabled endpoint
 *   subscribed to it); the webhook outbox sends it, and the row mirrors that delivery's state;
 * - email: one row to the customer's email, with its `invoices.deliver` job, when this process can email
 *   (SMTP_URL), the invoice has a customer email, and the tenant's invoice settings leave email_on_issue on
 *   (the default).
 * A rollback of the issue takes the rows and jobs with it; a commit never loses one.
 */
import { enqueueJob } from "../../../jobs/enqueue";
import type { Emitted } from "../../webhooks/emit";
import type { InvoiceContext } from "../lifecycle/context";
import type { InvoiceDeliveryRow, InvoiceRow } from "../rows";
import { findInvoiceSettings } from "../repo";
import { insertDelivery, insertWebhookDeliveries, type DeliveryTrigger } from "./repo";

/** Attempts of one email before it is FAILED: graphile-worker's backoff (e^n seconds) spreads 12 over about 16 hours. */
export const EMAIL_MAX_ATTEMPTS = 12;

/** issueInvoice's one call: the issue's deliveries, given what its `invoice.issued` event wrote. */
export async function queueIssueDeliveries(c: InvoiceContext, invoice: InvoiceRow, issuedEvent: Emitted): Promise<void> {
  await insertWebhookDeliveries(c.tx, c.tenant, { invoiceId: invoice.id, trigger: "issue", webhookDeliveryIds: issuedEvent.deliveryIds }, c.now);
  if (!c.emailEnabled || !invoice.customer_email) return;
  const settings = await findInvoiceSettings(c.tx, c.tenant);
  if (settings && !settings.email_on_issue) return;
  await queueEmail(c, invoice.id, invoice.customer_email, "issue");
}

/** An email delivery and the job that sends it, retried by the queue until EMAIL_MAX_ATTEMPTS. */
export async function queueEmail(
  c: Pick<InvoiceContext, "tx" | "tenant" | "now">,
  invoiceId: string,
  to: string,
  trigger: DeliveryTrigger,
): Promise<InvoiceDeliveryRow> {
  const row = await insertDelivery(c.tx, c.tenant, { invoiceId, channel: "email", destination: to, trigger }, c.now);
  await enqueueJob(
    c.tx,
    "invoices.deliver",
    { teamId: c.tenant.teamId, environment: c.tenant.environment, deliveryId: row.id },
    { maxAttempts: EMAIL_MAX_ATTEMPTS },
  );
  return row;
}
