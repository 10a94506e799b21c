/**
 * An invoice's life (BILLING.md "Invoices"): create a draft, edit it while a draft, issue it (number from
 * the gapless series, due date from the payment terms), void it while nothing is paid, mark it overdue.
 * Each function runs inside the caller's transaction (`tx`), so one call composes with what the caller
 * does around it: a paid checkout session creates, issues and pays its invoice in the transaction that
 * records the payment, and the subscription issue creates renewal invoices through `createInvoice` with
 * `issue: true`. Every transition writes its audit entry and enqueues its webhook in that transaction; issuing
 * also queues the invoice's deliveries (email, webhook: deliveries/queue.ts).
 */
import { queries, runOne, type Db } from "../../db/queries";
import type { ChainRegistry } from "../../chains/registry";
import { networkAllowedIn } from "../../chains/registry";
import { apiError } from "../../lib/errors";
import { newId } from "../../lib/ids";
import type { Tenant } from "../../lib/tenant";
import { recordAudit, type Actor } from "../audit/repo";
import { checkCurrencyAmount } from "../catalog/currency";
import { emitEvent, type Emitted } from "../webhooks/emit";
import { queueIssueDeliveries } from "./deliveries/queue";
import { priceLine, sumLines, type LineInput } from "./lines";
import type { InvoiceRow, InvoiceSource } from "./model";
import { presentInvoice } from "./present";
import {
  findInvoiceBySource,
  findInvoiceSettings,
  insertInvoice,
  issueDraft,
  linesOf,
  lockInvoice,
  nextNumber,
  setInvoiceStatus,
  updateDraft,
  writeLines,
  type InvoiceHeader,
} from "./repo";

const Q = queries(["company_find_by_ref"]);

export const DEFAULT_PAYMENT_TERMS_DAYS = 30;
export const MAX_LINES = 200;
const DAY_MS = 86_400_000;

/** What an invoice is made from; every field but currency and lines is optional. */
export interface InvoiceInput {
  currency: string;
  lines: readonly LineInput[];
  /** our company id or the integrator's; its email, wallet and name fill the customer fields left out */
  companyId?: string | null;
  customerName?: string | null;
  customerEmail?: string | null;
  customerWallet?: string | null;
  network?: string | null;
  planId?: string | null;
  description?: string | null;
  metadata?: Record<string, unknown>;
  /** default: the tenant's invoice settings (30 days without any) */
  paymentTermsDays?: number;
}

export interface CreateOptions {
  /** where it comes from: a checkout session or subscription period has one invoice (unique source id) */
  source?: { kind: Exclude<InvoiceSource, "manual">; id: string };
  /** issue it at once (a number is taken; the draft is never seen) */
  issue?: boolean;
}

export interface InvoiceContext {
  tx: Db;
  tenant: Tenant;
  actor: Actor;
  chains: ChainRegistry;
  now: Date;
  /** this process can email invoices (SMTP_URL is set): issuing queues the customer's email (deliveries/queue.ts) */
  emailEnabled: boolean;
}

const invalid = (field: string, expected: string) => apiError("validation_failed", "Validation failed", { [field]: expected });

/** Resolves and checks an input into the header and priced lines a draft stores; 400s name the body field. */
async function prepare(c: InvoiceContext, input: InvoiceInput) {
  const { tx, tenant, chains } = c;
  if (input.lines.length > MAX_LINES) throw invalid("body.lineItems", `Expected at most ${MAX_LINES} line items`);
  const lines = input.lines.map(priceLine);
  const totals = sumLines(lines);
  if (totals.total < 0n) throw invalid("body.lineItems", "Expected line items whose total is not negative (discounts cannot exceed the charges)");
  const currency = checkCurrencyAmount(chains, tenant.environment, input.currency, null);
  if (!currency.ok) throw invalid("body.currency", currency.expected);
  for (const [i, line] of lines.entries()) {
    const fits = checkCurrencyAmount(chains, tenant.environment, currency.symbol, line.lineTotal < 0n ? -line.lineTotal : line.lineTotal);
    if (!fits.ok) throw invalid(`body.lineItems[${i}].unitAmount`, fits.expected);
  }
  const network = input.network ?? null;
  if (network !== null) {
    const config = chains.get(network);
    if (!config || !networkAllowedIn(config, tenant.environment) || !config.tokens.some((t) => t.symbol === currency.symbol))
      throw invalid("body.network", `Expected a network this environment settles ${currency.symbol} on`);
  }
  let company: { id: string; name: string | null; email: string | null; wallet_address: string | null } | undefined;
  if (input.companyId) {
    company = await runOne(tx, Q.company_find_by_ref, [tenant.teamId, tenant.environment, input.companyId]);
    if (!company) throw invalid("body.companyId", `No company ${input.companyId}`);
  }
  const settings = await findInvoiceSettings(tx, tenant);
  const header: InvoiceHeader = {
    currency: currency.symbol,
    network,
    companyId: company?.id ?? null,
    customerName: input.customerName ?? company?.name ?? null,
    customerEmail: input.customerEmail ?? company?.email ?? null,
    customerWallet: input.customerWallet ?? company?.wallet_address ?? null,
    planId: input.planId ?? null,
    description: input.description ?? null,
    metadata: input.metadata ?? {},
    paymentTermsDays: input.paymentTermsDays ?? settings?.payment_terms_days ?? DEFAULT_PAYMENT_TERMS_DAYS,
  };
  return { header, lines, totals };
}

/**
 * A new draft (or, with `issue`, an issued invoice). With a `source` that already has its invoice,
 * that invoice is returned unchanged: a retried checkout settlement or renewal never makes a second.
 */
export async function createInvoice(c: InvoiceContext, input: InvoiceInput, options: CreateOptions = {}): Promise<InvoiceRow> {
  const { header, lines, totals } = await prepare(c, input);
  const source = options.source ? { kind: options.source.kind, id: options.source.id } : { kind: "manual" as const, id: null };
  const id = newId("in");
  const inserted = await insertInvoice(c.tx, c.tenant, id, header, source, c.now);
  if (!inserted) return (await lockInvoice(c.tx, c.tenant, (await findInvoiceBySource(c.tx, c.tenant, source.kind, source.id!))!.id))!;
  await writeLines(c.tx, c.tenant, id, lines);
  const draft = await updateDraft(c.tx, c.tenant, id, header, totals.subtotal, totals.taxTotal, c.now);
  await recordAudit(c.tx, {
    ...c.tenant,
    actor: c.actor,
    action: "invoice.create",
    resourceType: "invoice",
    resourceId: id,
    details: { source: source.kind },
  });
  return options.issue ? issueInvoice(c, id) : draft;
}

/** Locks an invoice of the tenant, or 404. */
export async function lockOr404(c: Pick<InvoiceContext, "tx" | "tenant">, id: string): Promise<InvoiceRow> {
  const invoice = await lockInvoice(c.tx, c.tenant, id);
  if (!invoice) throw apiError("not_found", `No invoice ${id}`);
  return invoice;
}

/** Replaces a draft's header and lines (the whole input, as on create). */
export async function updateInvoiceDraft(c: InvoiceContext, id: string, input: InvoiceInput): Promise<InvoiceRow> {
  const current = await lockOr404(c, id);
  if (current.status !== "DRAFT") throw apiError("invoice_not_draft", `Invoice ${current.number} is ${current.status}; only a draft can be edited`);
  const { header, lines, totals } = await prepare(c, input);
  await writeLines(c.tx, c.tenant, id, lines);
  const draft = await updateDraft(c.tx, c.tenant, id, header, totals.subtotal, totals.taxTotal, c.now);
  await recordAudit(c.tx, { ...c.tenant, actor: c.actor, action: "invoice.update", resourceType: "invoice", resourceId: id });
  return draft;
}

/** The invoice as webhooks carry it (the API's record, lines included). */
async function eventData(c: Pick<InvoiceContext, "tx" | "tenant">, invoice: InvoiceRow) {
  const lines = await linesOf(c.tx, c.tenant, [invoice.id]);
  return { invoice: presentInvoice(invoice, lines.get(invoice.id) ?? []) };
}

/** Tells webhooks of an invoice's new state (in the transaction that made it); what it wrote, for the deliveries. */
export const emitInvoiceEvent = (
  c: Pick<InvoiceContext, "tx" | "tenant" | "now">,
  type: "invoice.issued" | "invoice.paid" | "invoice.overdue" | "invoice.voided",
  invoice: InvoiceRow,
): Promise<Emitted> => emitEvent(c.tx, c.tenant, type, { lazy: () => eventData(c, invoice) }, { at: c.now });

/**
 * DRAFT -> ISSUED: the next number of the tenant's series (taken in this transaction, so a rollback leaves
 * no gap), issuedAt now, dueAt after the payment terms. An invoice for nothing (total 0) is PAID at once.
 */
export async function issueInvoice(c: InvoiceContext, id: string): Promise<InvoiceRow> {
  const draft = await lockOr404(c, id);
  if (draft.status !== "DRAFT") throw apiError("invoice_not_draft", `Invoice ${draft.number} is ${draft.status}; only a draft can be issued`);
  if ((await linesOf(c.tx, c.tenant, [id])).get(id)!.length === 0)
    throw apiError("invoice_empty", "Add at least one line item before issuing the invoice");
  const { sequence, number } = await nextNumber(c.tx, c.tenant, "invoice");
  const dueAt = new Date(c.now.getTime() + draft.payment_terms_days * DAY_MS);
  const issued = (await issueDraft(c.tx, c.tenant, id, sequence, number, c.now, dueAt))!;
  const issuedEvent = await emitInvoiceEvent(c, "invoice.issued", issued);
  await queueIssueDeliveries(c, issued, issuedEvent);
  if (issued.status === "PAID") await emitInvoiceEvent(c, "invoice.paid", issued);
  await recordAudit(c.tx, { ...c.tenant, actor: c.actor, action: "invoice.issue", resourceType: "invoice", resourceId: id, details: { number } });
  return issued;
}

/** DRAFT | ISSUED | OVERDUE -> VOID, only while nothing is paid (after a payment, correct with a credit note). */
export async function voidInvoice(c: InvoiceContext, id: string): Promise<InvoiceRow> {
  const invoice = await lockOr404(c, id);
  if (invoice.status === "VOID") return invoice; // voiding twice changes nothing
  if (invoice.status === "PAID" || invoice.amount_paid > 0n)
    throw apiError("invoice_not_voidable", `Invoice ${invoice.number} has payments; correct it with a credit note instead`);
  const voided = await setInvoiceStatus(c.tx, c.tenant, id, "VOID", c.now);
  await emitInvoiceEvent(c, "invoice.voided", voided);
  await recordAudit(c.tx, { ...c.tenant, actor: c.actor, action: "invoice.void", resourceType: "invoice", resourceId: id });
  return voided;
}

/** ISSUED -> OVERDUE once dueAt has passed; false when the invoice moved on meanwhile. */
export async function markOverdue(c: Omit<InvoiceContext, "chains" | "emailEnabled">, id: string): Promise<boolean> {
  const invoice = await lockInvoice(c.tx, c.tenant, id);
  if (!invoice || invoice.status !== "ISSUED" || !invoice.due_at || invoice.due_at > c.now) return false;
  const overdue = await setInvoiceStatus(c.tx, c.tenant, id, "OVERDUE", c.now);
  await emitInvoiceEvent(c, "invoice.overdue", overdue);
  await recordAudit(c.tx, { ...c.tenant, actor: c.actor, action: "invoice.overdue", resourceType: "invoice", resourceId: id });
  return true;
}
