/**
 * Money against an invoice, inside the caller's transaction (the invoice locked first):
 * - a payment is applied up to the outstanding amount; any excess goes to the company's credit balance (as
 *   Stripe does: an overpayment is never refused). An invoice without a company has no balance to hold it:
 *   the excess stays recorded on the payment (`amountExcess` in the invoice's payments) for the operator;
 * - credit notes (credit-notes/create.ts) lower what it asks or record money sent back.
 */
import { apiError } from "../../../lib/errors";
import { formatMicro } from "../../../lib/money";
import { recordAudit } from "../../audit/repo";
import { attachPayment } from "./repo";
import { emitInvoiceEvent, lockOr404 } from "../lifecycle/transitions";
import type { LedgerContext } from "../lifecycle/context";
import type { InvoiceRow } from "../rows";
import { addBalanceEntry } from "../credit-notes/repo";
import { addInvoiceAmounts } from "../repo";

type Ctx = LedgerContext;

export interface AppliedPayment {
  invoice: InvoiceRow;
  applied: bigint;
  excess: bigint;
}

/**
 * Applies a recorded payment (a `payments` row) of `amount` micro-units to an invoice. An open invoice
 * whose outstanding amount reaches 0 becomes PAID (and `invoice.paid` is sent). A payment on a PAID
 * invoice goes wholly to the credit balance; a draft or void invoice refuses it (409 invoice_not_payable).
 * `network` becomes the invoice's network when it has none; a payment on another network than the
 * invoice's is refused (its refunds are proven on the invoice's network).
 */
export async function applyPayment(c: Ctx, invoiceId: string, payment: { id: string; amount: bigint; network: string }): Promise<AppliedPayment> {
  const invoice = await lockOr404(c, invoiceId);
  if (invoice.status === "DRAFT" || invoice.status === "VOID")
    throw apiError("invoice_not_payable", `Invoice ${invoice.number} is ${invoice.status} and cannot take a payment`);
  if (invoice.network !== null && invoice.network !== payment.network)
    throw apiError("invoice_not_payable", `Invoice ${invoice.number} settles on ${invoice.network}, not ${payment.network}`);
  const applied = payment.amount < invoice.amount_outstanding ? payment.amount : invoice.amount_outstanding;
  const excess = payment.amount - applied;
  await attachPayment(c.tx, c.tenant, { paymentId: payment.id, invoiceId, applied, excess }, c.now);
  const updated = await announceIfPaid(
    c,
    invoice,
    await addInvoiceAmounts(c.tx, c.tenant, { id: invoiceId, paid: applied, network: payment.network }, c.now),
  );
  if (excess > 0n && invoice.company_id)
    await addBalanceEntry(
      c.tx,
      c.tenant,
      {
        companyId: invoice.company_id,
        currency: invoice.currency,
        amount: excess,
        reason: `Overpayment of ${invoice.number}`,
        invoiceId,
        paymentId: payment.id,
      },
      c.now,
    );
  await recordAudit(c.tx, {
    ...c.tenant,
    actor: c.actor,
    action: "invoice.payment",
    resourceType: "invoice",
    resourceId: invoiceId,
    details: { paymentId: payment.id, applied: formatMicro(applied), excess: formatMicro(excess) },
  });
  return { invoice: updated, applied, excess };
}

/** Tells webhooks when the change just made (addInvoiceAmounts) left an open invoice PAID. */
export async function announceIfPaid(c: Ctx, before: InvoiceRow, after: InvoiceRow): Promise<InvoiceRow> {
  if (before.status !== "PAID" && after.status === "PAID") await emitInvoiceEvent(c, "invoice.paid", after);
  return after;
}
