/**
 * An invoice's life (BILLING.md "Invoices"): create a draft, edit it while a draft, issue it (number from
 * the gapless series, due date from the payment terms), void it while nothing is paid, mark it overdue.
 * Each function runs inside the caller's transaction (`tx`), so one call composes with what the caller
 * does around it: a paid checkout session creates, issues and pays its invoice in the transaction that
 * records the payment, and a subscription's renewal creates its invoice through `createInvoice` with
 * `issue: true`. Every transition writes its audit entry and enqueues its webhook in that transaction; issuing
 * also queues the invoice's deliveries (email, webhook: deliveries/queue.ts).
 */
import { apiError } from "../../../lib/errors";
import { newId } from "../../../lib/ids";
import { recordAudit } from "../../audit/repo";
import { emitEvent, type Emitted } from "../../webhooks/emit";
import { queueIssueDeliveries } from "../deliveries/queue";
import type { InvoiceContext, LedgerContext } from "./context";
import type { InvoiceRow, InvoiceSource } from "../rows";
import { dueDateOf, prepareInvoice, type InvoiceInput } from "./prepare";
import { presentInvoice } from "../present";
import { findInvoiceBySource, insertInvoice, issueDraft, linesOf, lockInvoice, nextNumber, setInvoiceStatus, updateDraft, writeLines } from "../repo";

export type { InvoiceInput } from "./prepare";

export interface CreateOptions {
  /** where it comes from: a checkout session or subscription period has one invoice (unique source id) */
  source?: { kind: Exclude<InvoiceSource, "manual">; id: string };
  /** issue it at once (a number is taken; the draft is never seen) */
  issue?: boolean;
}

/**
 * A new draft (or, with `issue`, an issued invoice). With a `source` that already has its invoice,
 * that invoice is returned unchanged: a retried checkout settlement or renewal never makes a second.
 */
export async function createInvoice(c: InvoiceContext, input: InvoiceInput, options: CreateOptions = {}): Promise<InvoiceRow> {
  const source = options.source ? { kind: options.source.kind, id: options.source.id } : { kind: "manual" as const, id: null };
  const existing = source.id ? await findInvoiceBySource(c.tx, c.tenant, source.kind, source.id) : undefined;
  if (existing) return (await lockInvoice(c.tx, c.tenant, existing.id))!;
  const { header, lines, totals } = await prepareInvoice(c, input);
  const id = newId("in");
  const inserted = await insertInvoice(c.tx, c.tenant, { id, header, source }, c.now);
  // A concurrent creation for the same source committed first: that one is the invoice.
  if (!inserted) return (await lockInvoice(c.tx, c.tenant, (await findInvoiceBySource(c.tx, c.tenant, source.kind, source.id!))!.id))!;
  await writeLines(c.tx, c.tenant, id, lines);
  const draft = await updateDraft(c.tx, c.tenant, { id, header, subtotal: totals.subtotal, taxTotal: totals.taxTotal }, c.now);
  const result = options.issue ? await issueLocked(c, draft) : draft;
  // Audit entries last: the audit chain's lock is the last one a transaction takes (see issueLocked).
  await recordAudit(c.tx, {
    ...c.tenant,
    actor: c.actor,
    action: "invoice.create",
    resourceType: "invoice",
    resourceId: id,
    details: { source: source.kind },
  });
  if (options.issue) await auditIssue(c, result);
  return result;
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
  const { header, lines, totals } = await prepareInvoice(c, input);
  await writeLines(c.tx, c.tenant, id, lines);
  const draft = await updateDraft(c.tx, c.tenant, { id, header, subtotal: totals.subtotal, taxTotal: totals.taxTotal }, c.now);
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
): Promise<Emitted> => emitEvent(c, type, { lazy: () => eventData(c, invoice) }, { at: c.now });

/**
 * DRAFT -> ISSUED: the next number of the tenant's series (taken in this transaction, so a rollback leaves
 * no gap), issuedAt now, dueAt after the payment terms. An invoice for nothing (total 0) is PAID at once.
 */
export async function issueInvoice(c: InvoiceContext, id: string): Promise<InvoiceRow> {
  const issued = await issueLocked(c, await lockOr404(c, id));
  await auditIssue(c, issued);
  return issued;
}

/**
 * Issues a draft whose row the caller holds locked. Lock order, the same in every invoice transaction so two
 * never wait on each other: the invoice row, then the tenant's number counter, then the audit chain (audit
 * entries are written last; recordAudit's chain lock is held to commit).
 */
async function issueLocked(c: InvoiceContext, draft: InvoiceRow): Promise<InvoiceRow> {
  if (draft.status !== "DRAFT") throw apiError("invoice_not_draft", `Invoice ${draft.number} is ${draft.status}; only a draft can be issued`);
  if ((await linesOf(c.tx, c.tenant, [draft.id])).get(draft.id)!.length === 0)
    throw apiError("invoice_empty", "Add at least one line item before issuing the invoice");
  const { sequence, number } = await nextNumber(c.tx, c.tenant, "invoice");
  const issued = (await issueDraft(c.tx, c.tenant, {
    id: draft.id,
    sequence,
    number,
    issuedAt: c.now,
    dueAt: dueDateOf(c.now, draft.payment_terms_days),
  }))!;
  const issuedEvent = await emitInvoiceEvent(c, "invoice.issued", issued);
  await queueIssueDeliveries(c, issued, issuedEvent);
  if (issued.status === "PAID") await emitInvoiceEvent(c, "invoice.paid", issued);
  return issued;
}

const auditIssue = (c: InvoiceContext, issued: InvoiceRow) =>
  recordAudit(c.tx, {
    ...c.tenant,
    actor: c.actor,
    action: "invoice.issue",
    resourceType: "invoice",
    resourceId: issued.id,
    details: { number: issued.number },
  });

/** DRAFT | ISSUED | OVERDUE -> VOID, only while nothing is paid (after a payment, correct with a credit note). */
export async function voidInvoice(c: InvoiceContext, id: string): Promise<InvoiceRow> {
  const invoice = await lockOr404(c, id);
  if (invoice.status === "VOID") return invoice; // voiding twice changes nothing
  if (invoice.status === "PAID" || invoice.amount_paid > 0n)
    throw apiError("invoice_not_voidable", `Invoice ${invoice.number} has payments; correct it with a credit note instead`);
  const voided = await setInvoiceStatus(c.tx, c.tenant, { id, status: "VOID" }, c.now);
  await emitInvoiceEvent(c, "invoice.voided", voided);
  await recordAudit(c.tx, { ...c.tenant, actor: c.actor, action: "invoice.void", resourceType: "invoice", resourceId: id });
  return voided;
}

/** ISSUED -> OVERDUE once dueAt has passed; false when the invoice moved on meanwhile. */
export async function markOverdue(c: LedgerContext, id: string): Promise<boolean> {
  const invoice = await lockInvoice(c.tx, c.tenant, id);
  if (!invoice || invoice.status !== "ISSUED" || !invoice.due_at || invoice.due_at > c.now) return false;
  const overdue = await setInvoiceStatus(c.tx, c.tenant, { id, status: "OVERDUE" }, c.now);
  await emitInvoiceEvent(c, "invoice.overdue", overdue);
  await recordAudit(c.tx, { ...c.tenant, actor: c.actor, action: "invoice.overdue", resourceType: "invoice", resourceId: id });
  return true;
}
