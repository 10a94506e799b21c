/** The steps every way of making a plan change shares (change.ts and payments.ts): the command and its result, the re-quote under the locks, the coupon's redemption, the change's invoice. */
import { apiError } from "../../../lib/errors";
import { addBalanceEntry } from "../../invoices/credit-notes/repo";
import { createInvoice } from "../../invoices/lifecycle/transitions";
import { lockTransaction } from "../../transaction-claims/repo";
import { findCompanyByKeys } from "../../customers/repo";
import { quotePlanChange, type PlanChangeRequest, type Quote } from "./quote";
import type { PlanChange } from "./proration";
import { invoiceContext, type TxContext } from "../context";
import type { SubscriptionRow } from "../rows";
import { findPendingCharge, lockSubscription } from "../repo";
import { redeemCoupon } from "../../catalog/coupons/redeem";
import { assertQuoteStands, useQuote } from "./quotes";

/** What each way of making the change reports; changePlan adds how it was priced. */
export type ChangeOutcome = Omit<PlanChangeResult, "pricedAt" | "quoteId">;

export interface PlanChangeCommand extends PlanChangeRequest {
  /** a preview's quote: the change prices at its instant and charges exactly it (quotes.ts) */
  quoteId: string | null;
  txHash: string | null;
  customerName: string | null;
  customerEmail: string | null;
}

export interface PlanChangeResult {
  success: true;
  planId: string;
  status: string;
  currentPeriodEnd: string;
  effective: "now" | "period_end";
  /** the proration invoice, or null (nothing to pay now, or a change at period end) */
  invoiceId: string | null;
  /** the instant the change was priced at: the quote's, or the change's own */
  pricedAt: string;
  /** the quote charged, or null: priced at its own instant */
  quoteId: string | null;
}

export const resultOf = (sub: SubscriptionRow, invoiceId: string | null, effective: "now" | "period_end"): ChangeOutcome => ({
  success: true,
  planId: effective === "now" ? sub.plan_id : sub.scheduled_plan_id!,
  status: sub.status,
  currentPeriodEnd: sub.current_period_end.toISOString(),
  effective,
  invoiceId,
});

/**
 * The quote again, on the locked row at the same instant: what gets written. Locks in the order every
 * subscription transaction takes them, each row before the audit chain's lock (taken by the first audit entry
 * and held to commit, so a row locked after it could close a cycle with a transaction that locked that row and
 * then audits): the subscription, the transfer's hash (a change paid by `txHash`), the company (its plan is set),
 * then the mandate, coupon, invoice, counter and audit. A pending chain operation (a renewal or another change in
 * flight) is a 409 with Retry-After; a quote that is not the one prepared (a renewal ran, the balance moved, the
 * same change was made meanwhile) is a 409: what is written, and what a transfer or pull pays, is what was quoted.
 * A change given a quote id checks that quote against the locked row first and uses it (quotes.ts).
 */
export async function requote(
  c: TxContext,
  {
    companyId,
    command,
    quoted,
    transfer,
  }: { companyId: string; command: PlanChangeCommand; quoted: Quote; transfer?: { network: string; txHash: string } },
) {
  const locked = (await lockSubscription(c.tx, c.tenant, quoted.sub.id))!;
  if (transfer) await lockTransaction(c.tx, transfer.network, transfer.txHash);
  await findCompanyByKeys(c.tx, c.tenant, { id: locked.company_id }); // locks the company row (for update)
  if (command.quoteId) await assertQuoteStands(c, companyId, command.quoteId, locked);
  // Quoted first: a renewal that started the next period meanwhile (its pull maybe still in flight) makes this
  // change's instant fall outside the period, which no retry changes.
  const again = await quotePlanChange(c.tx, c.tenant, { companyId, request: command, now: quoted.pricedAt, locked });
  if (await findPendingCharge(c.tx, c.tenant, locked.id))
    throw apiError("operation_in_progress", "A chain operation of this subscription is in flight; retry shortly", undefined, { "Retry-After": "30" });
  if (command.quoteId) await useQuote(c, companyId, command.quoteId, again);
  else if (moved(quoted.change, again.change))
    throw apiError("plan_change_not_allowed", "The subscription changed while the change was prepared; preview it again");
  return { locked, again };
}

const moved = (a: PlanChange, b: PlanChange): boolean =>
  a.changed !== b.changed ||
  a.effective !== b.effective ||
  (a.invoice?.total ?? 0n) !== (b.invoice?.total ?? 0n) ||
  a.creditToBalance !== b.creditToBalance;

export const redeem = async (c: TxContext, sub: SubscriptionRow, q: Quote) =>
  q.coupon ? (await redeemCoupon(c.tx, c.tenant, { code: q.coupon.code, companyId: sub.company_id, planId: q.target.planId }, c.now)).id : null;

/** The change's invoice: its lines, then the credit balance drawn (the ledger entry written with it). */
export async function issueChangeInvoice(
  c: TxContext,
  sub: SubscriptionRow,
  { q, command, issue }: { q: Quote; command: PlanChangeCommand; issue: boolean },
) {
  const invoice = q.change.invoice!;
  const created = await createInvoice(
    invoiceContext(c),
    {
      currency: sub.currency,
      network: sub.network,
      companyId: sub.company_id,
      customerName: command.customerName,
      customerEmail: command.customerEmail ?? sub.subscriber_email,
      customerWallet: sub.payment_account,
      planId: q.target.planId,
      lines: invoice.lines,
      metadata: { subscriptionId: sub.id, planChange: q.change.kind },
    },
    { issue },
  );
  if (invoice.balanceApplied > 0n)
    await addBalanceEntry(
      c.tx,
      c.tenant,
      {
        companyId: sub.company_id,
        currency: sub.currency,
        amount: -invoice.balanceApplied,
        reason: `Applied to ${created.number ?? created.id}`,
        invoiceId: created.id,
      },
      c.now,
    );
  return created;
}
