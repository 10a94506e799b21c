/** Typed access to invoices, their lines, number series, payments, refunds, deliveries, settings and settlement wallets (sql/queries/invoice_*, …). */
import { queries, run, runOne, runPlannedPerCall, type Db } from "../../db/queries";
import type { Tenant } from "../../lib/tenant";
import { likePattern } from "../../lib/like-pattern";
import type { PricedLine } from "./compute";
import type {
  InvoiceDeliveryRow,
  InvoiceLineRow,
  InvoicePaymentRow,
  InvoiceRow,
  InvoiceSettingsRow,
  InvoiceSource,
  InvoiceStatus,
  RefundRow,
  SettlementWalletRow,
} from "./rows";

const Q = queries([
  "company_find_by_ref",
  "invoice_list_page",
  "invoice_list_page_by_status",
  "invoice_list_page_by_company",
  "invoice_search_page",
  "invoice_insert",
  "invoice_find_by_id",
  "invoice_find_by_source",
  "invoice_lock_by_id",
  "invoice_update_draft",
  "invoice_lines_delete",
  "invoice_lines_insert_many",
  "invoice_lines_list",
  "invoice_issue",
  "invoice_set_status",
  "invoice_add_amounts",
  "invoice_list_overdue",
  "invoice_settings_find",
  "invoice_payment_list",
  "document_number_next",
  "refund_list_by_invoice",
  "invoice_delivery_list",
  "settlement_wallet_find",
]);

/** The header of an invoice: who it is for and how it settles (everything but lines and amounts). */
export interface InvoiceHeader {
  currency: string;
  network: string | null;
  companyId: string | null;
  customerName: string | null;
  customerEmail: string | null;
  customerWallet: string | null;
  planId: string | null;
  description: string | null;
  metadata: Record<string, unknown>;
  paymentTermsDays: number;
}

/** A header as the one jsonb record the insert and the draft update take, keyed by column. */
const headerRecord = (h: InvoiceHeader) => ({
  currency: h.currency,
  network: h.network,
  company_id: h.companyId,
  customer_name: h.customerName,
  customer_email: h.customerEmail,
  customer_wallet: h.customerWallet,
  plan_id: h.planId,
  description: h.description,
  metadata: h.metadata,
  payment_terms_days: h.paymentTermsDays,
});

export interface InvoiceInsert {
  id: string;
  header: InvoiceHeader;
  source: { kind: InvoiceSource; id: string | null };
}

export const insertInvoice = (db: Db, t: Tenant, i: InvoiceInsert, now: Date) =>
  runOne<InvoiceRow>(db, Q.invoice_insert, [i.id, t.teamId, t.environment, i.source.kind, i.source.id, now, headerRecord(i.header)]);

export const findInvoice = (db: Db, t: Tenant, id: string) => runOne<InvoiceRow>(db, Q.invoice_find_by_id, [t.teamId, t.environment, id]);
export const lockInvoice = (db: Db, t: Tenant, id: string) => runOne<InvoiceRow>(db, Q.invoice_lock_by_id, [t.teamId, t.environment, id]);
export const findInvoiceBySource = (db: Db, t: Tenant, source: InvoiceSource, sourceId: string) =>
  runOne<InvoiceRow>(db, Q.invoice_find_by_source, [t.teamId, t.environment, source, sourceId]);

export interface DraftUpdate {
  id: string;
  header: InvoiceHeader;
  subtotal: bigint;
  taxTotal: bigint;
}

export const updateDraft = (db: Db, t: Tenant, d: DraftUpdate, now: Date) =>
  runOne<InvoiceRow>(db, Q.invoice_update_draft, [
    t.teamId,
    t.environment,
    d.id,
    d.subtotal,
    d.taxTotal,
    now,
    headerRecord(d.header),
  ]) as Promise<InvoiceRow>;

/** Replaces an invoice's lines (drafts only: the caller holds the invoice's lock and checked its status). */
export async function writeLines(db: Db, t: Tenant, invoiceId: string, lines: readonly PricedLine[]): Promise<void> {
  await run(db, Q.invoice_lines_delete, [t.teamId, t.environment, invoiceId]);
  if (lines.length === 0) return;
  await run(db, Q.invoice_lines_insert_many, [
    t.teamId,
    t.environment,
    invoiceId,
    lines.map((l) => ({
      kind: l.kind,
      description: l.description,
      quantity: l.quantity.toString(),
      unit_amount: l.unitAmount.toString(),
      tax_rate: l.taxRate.toString(),
      line_subtotal: l.lineSubtotal.toString(),
      line_tax: l.lineTax.toString(),
      line_total: l.lineTotal.toString(),
      plan_id: l.planId,
      period_start: l.periodStart?.toISOString() ?? null,
      period_end: l.periodEnd?.toISOString() ?? null,
    })) as unknown as Record<string, unknown>,
  ]);
}

/** The lines of each invoice, by invoice id, in order. */
export async function linesOf(db: Db, t: Tenant, invoiceIds: readonly string[]): Promise<Map<string, InvoiceLineRow[]>> {
  const byInvoice = new Map<string, InvoiceLineRow[]>(invoiceIds.map((id) => [id, []]));
  if (invoiceIds.length === 0) return byInvoice;
  for (const line of await run<InvoiceLineRow>(db, Q.invoice_lines_list, [t.teamId, t.environment, invoiceIds]))
    byInvoice.get(line.invoice_id)?.push(line);
  return byInvoice;
}

export interface DraftIssue {
  id: string;
  sequence: bigint;
  number: string;
  issuedAt: Date;
  dueAt: Date;
}

export const issueDraft = (db: Db, t: Tenant, i: DraftIssue) =>
  runOne<InvoiceRow>(db, Q.invoice_issue, [t.teamId, t.environment, i.id, i.sequence, i.number, i.issuedAt, i.dueAt]);

export const setInvoiceStatus = (db: Db, t: Tenant, s: { id: string; status: InvoiceStatus }, now: Date) =>
  runOne<InvoiceRow>(db, Q.invoice_set_status, [t.teamId, t.environment, s.id, s.status, now]) as Promise<InvoiceRow>;

export interface AmountChange {
  /** the invoice */
  id: string;
  paid?: bigint;
  credited?: bigint;
  refunded?: bigint;
  /** the invoice's network, when it has none yet (its first payment's) */
  network?: string | null;
}

export const addInvoiceAmounts = (db: Db, t: Tenant, c: AmountChange, now: Date) =>
  runOne<InvoiceRow>(db, Q.invoice_add_amounts, [
    t.teamId,
    t.environment,
    c.id,
    c.paid ?? 0n,
    c.credited ?? 0n,
    c.refunded ?? 0n,
    c.network ?? null,
    now,
  ]) as Promise<InvoiceRow>;

export const listOverdueCandidates = (db: Db, now: Date, limit: number) => run<Tenant & { id: string }>(db, Q.invoice_list_overdue, [now, limit]);

export const findInvoiceSettings = (db: Db, t: Tenant) => runOne<InvoiceSettingsRow>(db, Q.invoice_settings_find, [t.teamId, t.environment]);

export const listInvoicePayments = (db: Db, t: Tenant, invoiceId: string) =>
  run<InvoicePaymentRow>(db, Q.invoice_payment_list, [t.teamId, t.environment, invoiceId]);

export const SERIES_PREFIX = { invoice: "INV", credit_note: "CN" } as const;

/** The next number of a series, taken in the caller's transaction (gapless: a rollback gives it back). */
export async function nextNumber(db: Db, t: Tenant, series: keyof typeof SERIES_PREFIX): Promise<{ sequence: bigint; number: string }> {
  const row = (await runOne<{ last_value: bigint }>(db, Q.document_number_next, [t.teamId, t.environment, series]))!;
  return { sequence: row.last_value, number: `${SERIES_PREFIX[series]}-${row.last_value.toString().padStart(6, "0")}` };
}

export const listRefunds = (db: Db, t: Tenant, invoiceId: string) =>
  run<RefundRow>(db, Q.refund_list_by_invoice, [t.teamId, t.environment, invoiceId]);
export const listDeliveries = (db: Db, t: Tenant, invoiceId: string) =>
  run<InvoiceDeliveryRow>(db, Q.invoice_delivery_list, [t.teamId, t.environment, invoiceId]);

/** Where the tenant receives money on a network (invoices, refunds, subscriptions); undefined when not set. */
export const findSettlementWallet = (db: Db, t: Tenant, network: string) =>
  runOne<SettlementWalletRow>(db, Q.settlement_wallet_find, [t.teamId, t.environment, network]);

export interface InvoiceFilters {
  status?: InvoiceStatus;
  /** a substring of the number, customer email or customer wallet, any case */
  q?: string;
  /** our comp_ id of the company the invoices are addressed to (resolved by the caller) */
  companyId?: string;
}

/** Up to `fetch` invoices below `beforeSeq` (null: from the newest), newest first. */
export function listInvoiceRows(db: Db, t: Tenant, p: { beforeSeq: bigint | null; fetch: number }, f: InvoiceFilters): Promise<InvoiceRow[]> {
  const page = [t.teamId, t.environment, p.beforeSeq, p.fetch] as const;
  // A company has few invoices: its index, with the status and the text as filters on them.
  if (f.companyId !== undefined)
    return run<InvoiceRow>(db, Q.invoice_list_page_by_company, [...page, f.companyId, f.status ?? null, f.q === undefined ? null : likePattern(f.q)]);
  // Planned per call: the pattern decides between the trigram index and the newest-first scan.
  if (f.q !== undefined) return runPlannedPerCall<InvoiceRow>(db, Q.invoice_search_page, [...page, likePattern(f.q), f.status ?? null]);
  if (f.status !== undefined) return run<InvoiceRow>(db, Q.invoice_list_page_by_status, [...page, f.status]);
  return run<InvoiceRow>(db, Q.invoice_list_page, page);
}

/** The company an invoice is addressed to, by its id or external id: what the invoice copies of it. */
export const findCompanyByRef = (db: Db, t: Tenant, ref: string) =>
  runOne<{ id: string; name: string | null; email: string | null; wallet_address: string | null }>(db, Q.company_find_by_ref, [
    t.teamId,
    t.environment,
    ref,
  ]);
