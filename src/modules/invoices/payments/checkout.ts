/**
 * The invoice of a paid checkout session: issued and PAID in the transaction that records the payment
 * (src/modules/payments/settle.ts calls this through SettlementDeps.invoiceSession), or later by the
 * backfill for sessions paid before invoices existed. One invoice per session: the invoices' unique source
 * index (checkout_session, session id) makes a retry or a second backfill return the invoice already made.
 *
 * The invoice has one line: the payment link's description, else what the session bought; quantity 1; the
 * session's amount in invoice micro-units; no tax. A token finer than a micro-unit (Stellar's 7 decimals,
 * 18-decimal EVM tokens) may ask an amount that is not a whole micro-unit: the line is rounded DOWN to the
 * micro-unit (an invoice never claims more than was asked), and the payment row keeps the exact token
 * units the transaction moved. The payment is applied at its own value rounded down the same way, which is
 * never below the line (a transfer is at least the session's amount), so the invoice is always PAID; what
 * was paid past the amount goes to the company's credit balance, as any overpayment does.
 */
import { tokenToMicroFloor } from "../../../lib/money";
import { apiError } from "../../../lib/errors";
import { findPlanFull } from "../../catalog/plans/repo";
import { currencyTokens } from "../../catalog/currency";
import type { CheckoutSessionRow, RecordedPayment } from "../../payments/rows";
import { findPaymentLink } from "../../payments/repo";
import { createInvoice } from "../lifecycle/transitions";
import type { InvoiceContext } from "../lifecycle/context";
import type { InvoiceRow } from "../rows";
import { listInvoicePayments } from "../repo";
import { applyPayment } from "./settle";

export interface CheckoutInvoiceOptions {
  /** made by the backfill: marked in its metadata, and the payment applied at the session's paid time */
  backfill?: { paidAt: Date };
}

export async function invoiceCheckoutSession(
  c: InvoiceContext,
  session: CheckoutSessionRow,
  payment: RecordedPayment,
  options: CheckoutInvoiceOptions = {},
): Promise<InvoiceRow> {
  // Rounded to what every token of the currency can represent (micro-units unless the registry lists a
  // coarser token of that symbol), so the line passes the invoice's currency check on any registry.
  const precision = currencyTokens(c.chains, c.tenant.environment, session.token_symbol)?.minDecimals ?? session.token.decimals;
  const worth = (units: bigint) => {
    const micro = tokenToMicroFloor(units, session.token.decimals, precision);
    if (!micro.ok) throw apiError("validation_failed", "Validation failed", { amount: micro.expected });
    return micro.value;
  };
  const unitAmount = worth(BigInt(session.amount));
  const invoice = await createInvoice(
    c,
    {
      currency: session.token_symbol,
      network: session.network,
      companyId: session.company_id,
      customerWallet: payment.payer,
      planId: session.add_on_plan_id,
      lines: [{ description: await lineDescription(c, session), quantity: 1n, unitAmount, taxRate: 0n }],
      metadata: {
        checkoutSessionId: session.id,
        paymentLinkId: session.payment_link_id,
        ...(options.backfill ? { backfilled: true } : {}),
      },
    },
    { issue: true, source: { kind: "checkout_session", id: session.id } },
  );
  // The session's invoice made earlier (a retry) already carries its payment: applied once, never twice.
  if ((await listInvoicePayments(c.tx, c.tenant, invoice.id)).length > 0) return invoice;
  const applyAt = options.backfill ? { ...c, now: options.backfill.paidAt } : c;
  const paid = await applyPayment(applyAt, invoice.id, { id: payment.id, amount: worth(payment.amount), network: session.network });
  return paid.invoice;
}

/** The line's text: the payment link's description, else what the session bought. */
async function lineDescription(c: InvoiceContext, session: CheckoutSessionRow): Promise<string> {
  const link = await findPaymentLink(c.tx, c.tenant, session.payment_link_id);
  if (link?.description?.trim()) return link.description.slice(0, 500);
  if (session.purpose === "ADDON") {
    const plan = session.add_on_plan_id ? await findPlanFull(c.tx, c.tenant, session.add_on_plan_id) : undefined;
    return `Add-on: ${plan?.name ?? session.add_on_plan_id}`;
  }
  if (session.purpose === "CREDITS") return `${session.credit_amount} credits`;
  return `Payment in ${session.token_symbol} on ${session.network}`;
}
