/** Invoice rows to API records (schemas.ts): micro-units as six-digit decimal strings, tax rates with four. */
import { formatMicro, formatTaxRate } from "../../lib/money";
import type { Db } from "../../db/queries";
import type { Tenant } from "../../lib/tenant";
import type { CreditNoteLineRow, CreditNoteRow, InvoiceDeliveryRow, InvoiceLineRow, InvoicePaymentRow, InvoiceRow, RefundRow } from "./rows";
import { creditNoteLinesOf, listCreditNotes } from "./credit-notes/repo";
import { linesOf, listDeliveries, listInvoicePayments, listRefunds } from "./repo";
import { explorerTxUrl, type ChainRegistry } from "../../lib/networks";
import type {
  CreditNoteView,
  DashboardInvoiceDetailView,
  InvoiceDeliveryView,
  InvoiceDetailView,
  InvoicePaymentView,
  InvoiceView,
  RefundView,
} from "./schemas";

const iso = (d: Date | null) => d?.toISOString() ?? null;

export function presentInvoice(r: InvoiceRow, lines: readonly InvoiceLineRow[]): InvoiceView {
  return {
    id: r.id,
    number: r.number,
    status: r.status,
    currency: r.currency,
    network: r.network,
    companyId: r.company_id,
    customerName: r.customer_name,
    customerEmail: r.customer_email,
    customerWallet: r.customer_wallet,
    description: r.description,
    subtotal: formatMicro(r.subtotal),
    taxTotal: formatMicro(r.tax_total),
    total: formatMicro(r.total),
    amountPaid: formatMicro(r.amount_paid),
    amountCredited: formatMicro(r.amount_credited),
    amountRefunded: formatMicro(r.amount_refunded),
    amountOutstanding: formatMicro(r.amount_outstanding),
    paymentTermsDays: r.payment_terms_days,
    dueAt: iso(r.due_at),
    // BILLING.md: a draft leaves issuedAt out, never null.
    ...(r.issued_at ? { issuedAt: r.issued_at.toISOString() } : {}),
    paidAt: iso(r.paid_at),
    voidedAt: iso(r.voided_at),
    planId: r.plan_id,
    metadata: r.metadata,
    lineItems: lines.map((l) => ({
      description: l.description,
      quantity: Number(l.quantity),
      unitAmount: formatMicro(l.unit_amount),
      taxRate: formatTaxRate(BigInt(l.tax_rate)),
      lineSubtotal: formatMicro(l.line_subtotal),
      lineTax: formatMicro(l.line_tax),
      lineTotal: formatMicro(l.line_total),
      kind: l.kind,
    })),
    createdAt: r.created_at.toISOString(),
  };
}

export const presentCreditNote = (c: CreditNoteRow, currency: string, lines: readonly CreditNoteLineRow[]): CreditNoteView => ({
  id: c.id,
  number: c.number,
  invoiceId: c.invoice_id,
  currency,
  reason: c.reason,
  amount: formatMicro(c.total),
  creditAmount: formatMicro(c.credit_amount),
  refundAmount: formatMicro(c.refund_amount),
  refundId: c.refund_id,
  memo: c.memo,
  lineItems: lines.map((l) => ({ description: l.description, amount: formatMicro(l.amount) })),
  createdAt: c.created_at.toISOString(),
});

export const presentRefund = (r: RefundRow, currency: string): RefundView => ({
  id: r.id,
  invoiceId: r.invoice_id,
  creditNoteId: r.credit_note_id,
  amount: formatMicro(r.amount),
  currency,
  tokenAmount: r.token_amount,
  reason: r.reason,
  network: r.network,
  txHash: r.tx_hash,
  senderWallet: r.sender_wallet,
  recipientWallet: r.recipient_wallet,
  createdAt: r.created_at.toISOString(),
});

export const presentPayment = (p: InvoicePaymentRow): InvoicePaymentView => ({
  id: p.id,
  network: p.network,
  txHash: p.tx_hash,
  currency: p.token_symbol,
  tokenAmount: p.amount,
  amountApplied: formatMicro(p.applied_micro),
  amountExcess: formatMicro(p.excess_micro),
  payer: p.payer,
  checkoutSessionId: p.checkout_session_id,
  paidAt: (p.paid_at ?? p.created_at).toISOString(),
});

export const presentDelivery = (d: InvoiceDeliveryRow): InvoiceDeliveryView => ({
  id: d.id,
  channel: d.channel,
  destination: d.destination,
  trigger: d.trigger,
  status: d.status,
  attempts: d.attempts,
  lastError: d.last_error,
  sentAt: iso(d.sent_at),
  webhookDeliveryId: d.webhook_delivery_id,
  createdAt: d.created_at.toISOString(),
});

/** An invoice's credit notes as records, with their lines. */
export async function creditNotesOf(db: Db, t: Tenant, invoice: InvoiceRow): Promise<CreditNoteView[]> {
  const notes = await listCreditNotes(db, t, invoice.id);
  const lines = await creditNoteLinesOf(
    db,
    t,
    notes.map((n) => n.id),
  );
  return notes.map((n) => presentCreditNote(n, invoice.currency, lines.get(n.id) ?? []));
}

/** GET /invoices/{id}'s record: the invoice, its lines, and everything recorded against it. */
export async function invoiceDetail(db: Db, t: Tenant, invoice: InvoiceRow): Promise<InvoiceDetailView> {
  const [lines, payments, creditNotes, refunds, deliveries] = await Promise.all([
    linesOf(db, t, [invoice.id]),
    listInvoicePayments(db, t, invoice.id),
    creditNotesOf(db, t, invoice),
    listRefunds(db, t, invoice.id),
    listDeliveries(db, t, invoice.id),
  ]);
  return {
    ...presentInvoice(invoice, lines.get(invoice.id) ?? []),
    payments: payments.map(presentPayment),
    creditNotes,
    refunds: refunds.map((r) => presentRefund(r, invoice.currency)),
    deliveries: deliveries.map(presentDelivery),
  };
}

/** The dashboard's detail: each payment's and refund's transaction with its explorer page (the chain registry's). */
export const withExplorerLinks = (detail: InvoiceDetailView, chains: ChainRegistry): DashboardInvoiceDetailView => ({
  ...detail,
  payments: detail.payments.map((p) => ({ ...p, explorerUrl: explorerTxUrl(chains.get(p.network), p.txHash) })),
  refunds: detail.refunds.map((r) => ({ ...r, explorerUrl: explorerTxUrl(chains.get(r.network), r.txHash) })),
});
