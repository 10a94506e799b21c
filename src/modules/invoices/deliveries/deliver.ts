/**
 * The `invoices.deliver` task: one attempt of one invoice email. It renders the email from the invoice as it
 * is now (a paid invoice says nothing is due), attaches the PDF, and hands it to the SMTP server.
 * Each attempt is recorded on the delivery (attempts + 1, last_error, status):
 * - accepted: SENT;
 * - refused for good (5xx to the recipient or the message), the invoice voided meanwhile, or the job's last
 *   attempt: FAILED, and the job ends;
 * - otherwise (connection refused, timeout, 4xx, authentication): PENDING, and the handler throws so the queue
 *   retries it with its backoff (EMAIL_MAX_ATTEMPTS over about 16 hours).
 * A delivery no longer PENDING is left alone, so a job run twice sends nothing more. An email accepted just
 * before a crash, with its attempt not yet recorded, is sent again by the retry (at least once, as any mailer).
 */
import type { Sql } from "../../../db/client";
import type { Clock } from "../../../lib/clock";
import type { Logger } from "../../../lib/logger";
import type { Environment, Tenant } from "../../../lib/tenant";
import { documentUrl, signDocumentToken } from "../documents/tokens";
import { invoicePdf } from "../documents/pdf";
import { loadDocumentSource } from "../documents/source";
import type { InvoiceDeliveryRow } from "../rows";
import { findInvoice } from "../repo";
import { isSingleAddress, NOT_SINGLE_ADDRESS } from "./address";
import { composeInvoiceEmail } from "./email";
import type { Mailer, MailMessage, SendFailure } from "./mailer";
import { findDelivery, recordAttempt } from "./repo";

/** How long an emailed download link works (the PDF is attached as well; GET /invoices/{id} hands out fresh links). */
export const EMAIL_LINK_TTL_SECONDS = 90 * 86_400;

export interface DeliverDeps {
  sql: Sql;
  clock: Clock;
  logger: Logger;
  config: { linkSigningSecret: string; publicBaseUrl: string | null; smtpFrom: string | undefined };
  /** null when this process has no SMTP_URL */
  mailer: Mailer | null;
}

export interface DeliverPayload {
  teamId: string;
  environment: Environment;
  deliveryId: string;
}

export async function deliverInvoice(deps: DeliverDeps, payload: DeliverPayload, job: { attempt: number; maxAttempts: number }): Promise<void> {
  const tenant: Tenant = { teamId: payload.teamId, environment: payload.environment };
  const delivery = await findDelivery(deps.sql, tenant, payload.deliveryId);
  // Settled by an earlier run; webhook rows are sent by the webhook outbox, never here.
  if (!delivery || delivery.status !== "PENDING" || delivery.channel !== "email") return;
  const outcome = await attempt(deps, tenant, delivery);
  const now = new Date(deps.clock.now());
  const where = { teamId: tenant.teamId, environment: tenant.environment, deliveryId: delivery.id, invoiceId: delivery.invoice_id };
  if (outcome.ok) {
    await recordAttempt(deps.sql, tenant, { id: delivery.id, status: "SENT", lastError: null }, now);
    deps.logger.info("invoice emailed", where);
    return;
  }
  const last = outcome.permanent || job.attempt >= job.maxAttempts;
  await recordAttempt(deps.sql, tenant, { id: delivery.id, status: last ? "FAILED" : "PENDING", lastError: outcome.error }, now);
  if (last) {
    deps.logger.warn("invoice email failed", { ...where, attempt: job.attempt, error: outcome.error });
    return;
  }
  // Only the safe description travels on: the queue logs it with the retry.
  throw new Error(`Invoice email ${delivery.id}, attempt ${job.attempt}: ${outcome.error}`);
}

async function attempt(deps: DeliverDeps, tenant: Tenant, delivery: InvoiceDeliveryRow): Promise<{ ok: true } | ({ ok: false } & SendFailure)> {
  const invoice = (await findInvoice(deps.sql, tenant, delivery.invoice_id))!;
  if (invoice.status === "VOID") return { ok: false, error: "The invoice was voided before it was sent", permanent: true };
  // Checked again at sending: an issue queues the customer email as the invoice has it (a row that fails here,
  // visibly, rather than an issue, or the checkout payment issuing it, that fails), and a list would go to all.
  if (!isSingleAddress(delivery.destination))
    return { ok: false, error: `Not sent to "${delivery.destination.slice(0, 100)}": ${NOT_SINGLE_ADDRESS}`, permanent: true };
  if (!deps.mailer) return { ok: false, error: "This process cannot email: SMTP_URL is not set", permanent: false };
  let message: MailMessage;
  try {
    message = await compose(deps, deps.mailer, tenant, delivery);
  } catch (error) {
    return { ok: false, error: `The email could not be prepared: ${deps.mailer.describe(error)}`, permanent: false };
  }
  return deps.mailer.send(message);
}

/**
 * The message, from the same document source as the PDF (the invoice as GET /invoices/{id} shows it, the seller
 * as the invoice settings describe it): From the operator's address (SMTP_FROM, else invoices@<SMTP host>) in the
 * seller's name, never the seller's own address: the relay is the operator's, and a tenant could otherwise send
 * as any address it types into its settings (and fail the receivers' SPF/DMARC checks). Replies go to the seller's
 * email (Reply-To, when it is one address); the PDF attached as <number>.pdf.
 */
async function compose(deps: DeliverDeps, mailer: Mailer, tenant: Tenant, delivery: InvoiceDeliveryRow): Promise<MailMessage> {
  const source = await loadDocumentSource(deps.sql, tenant, delivery.invoice_id);
  const { invoice, seller } = source;
  const sellerName = seller.name.replace(/\s+/g, " ").trim();
  const now = new Date(deps.clock.now());
  const base = deps.config.publicBaseUrl;
  const download = base
    ? {
        url: documentUrl(
          base,
          signDocumentToken(deps.config.linkSigningSecret, { tenant, invoiceId: invoice.id, kind: "pdf" }, now, EMAIL_LINK_TTL_SECONDS),
        ),
        expiresAt: new Date(now.getTime() + EMAIL_LINK_TTL_SECONDS * 1000),
      }
    : null;
  const content = composeInvoiceEmail({ invoice, seller: { name: sellerName, footer: seller.footer }, download });
  const fromAddress = deps.config.smtpFrom ?? `invoices@${mailer.host}`;
  const replyTo =
    seller.email && seller.email !== fromAddress && isSingleAddress(seller.email) ? { name: sellerName, address: seller.email } : undefined;
  return {
    from: { name: sellerName, address: fromAddress },
    ...(replyTo ? { replyTo } : {}),
    to: delivery.destination,
    ...content,
    attachments: [{ filename: `${invoice.number}.pdf`, content: await invoicePdf(source), contentType: "application/pdf" }],
  };
}
