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
import { findTeam } from "../../teams/team";
import { documentUrl, signDocumentToken } from "../document-links";
import type { InvoiceDeliveryRow } from "../model";
import { presentInvoice } from "../present";
import { findInvoice, findInvoiceSettings, linesOf } from "../repo";
import { composeInvoiceEmail } from "./email";
import type { Mailer, MailMessage, SendFailure } from "./mailer";
import { findDelivery, recordAttempt } from "./repo";

/** How long an emailed download link works (the PDF is attached as well; GET /invoices/{id} hands out fresh links). */
export const EMAIL_LINK_TTL_SECONDS = 90 * 86_400;

export interface DeliverDeps {
  sql: Sql;
  clock: Clock;
  logger: Logger;
  config: { linkSigningSecret: string; publicBaseUrl: string | undefined; smtpFrom: string | undefined };
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
    await recordAttempt(deps.sql, tenant, delivery.id, "SENT", null, now);
    deps.logger.info("invoice emailed", where);
    return;
  }
  const last = outcome.permanent || job.attempt >= job.maxAttempts;
  await recordAttempt(deps.sql, tenant, delivery.id, last ? "FAILED" : "PENDING", outcome.error, now);
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
  if (!deps.mailer) return { ok: false, error: "This process cannot email: SMTP_URL is not set", permanent: false };
  let message: MailMessage;
  try {
    message = await compose(deps, deps.mailer, tenant, delivery);
  } catch (error) {
    return { ok: false, error: `The email could not be prepared: ${deps.mailer.describe(error)}`, permanent: false };
  }
  return deps.mailer.send(message);
}

/** The message: From the configured address (else the seller's, else invoices@<SMTP host>), replies to the seller. */
async function compose(deps: DeliverDeps, mailer: Mailer, tenant: Tenant, delivery: InvoiceDeliveryRow): Promise<MailMessage> {
  const [invoice, lines, settings, team] = await Promise.all([
    findInvoice(deps.sql, tenant, delivery.invoice_id),
    linesOf(deps.sql, tenant, [delivery.invoice_id]),
    findInvoiceSettings(deps.sql, tenant),
    findTeam(deps.sql, tenant.teamId),
  ]);
  const view = presentInvoice(invoice!, lines.get(invoice!.id) ?? []);
  const sellerName = (settings?.seller_name ?? team?.name ?? "Your supplier").replace(/\s+/g, " ").trim();
  const now = new Date(deps.clock.now());
  const base = deps.config.publicBaseUrl;
  const download = base
    ? {
        url: documentUrl(base, signDocumentToken(deps.config.linkSigningSecret, tenant, invoice!.id, "pdf", now, EMAIL_LINK_TTL_SECONDS)),
        expiresAt: new Date(now.getTime() + EMAIL_LINK_TTL_SECONDS * 1000),
      }
    : null;
  const content = composeInvoiceEmail({ invoice: view, seller: { name: sellerName, footer: settings?.footer ?? null }, download });
  const fromAddress = deps.config.smtpFrom ?? settings?.seller_email ?? `invoices@${mailer.host}`;
  const replyTo = settings?.seller_email && settings.seller_email !== fromAddress ? settings.seller_email : undefined;
  return {
    from: { name: sellerName, address: fromAddress },
    ...(replyTo ? { replyTo } : {}),
    to: delivery.destination,
    ...content,
    attachments: [],
  };
}
