/**
 * A plan change's quote, made a thing (BILLING.md "Plan change": the quote is the charge). A preview records what
 * it priced: the terms, the instant it priced at, the subscription's state and the amounts, valid QUOTE_TTL_MS.
 * The change given the quote's id prices at that same instant (as Stripe's proration_date does), so the time that
 * passed between preview and change moves nothing, and it charges exactly the recorded amounts, once. Refused with
 * a code, and nothing written, when the quote is unknown for this company (404 quote_not_found), expired
 * (quote_expired), used (quote_used), or when the subscription, its coupon, the credit balance or the tax rate
 * moved since so the same instant no longer prices the same (quote_stale). The body's plan, billing period,
 * coupon and effective may be left out (the quote's are used); given, they must be the quote's.
 */
import type { Db } from "../../../db/queries";
import { apiError } from "../../../lib/errors";
import { newId } from "../../../lib/ids";
import type { Tenant } from "../../../lib/tenant";
import type { PlanChangeRequest, Quote } from "./quote";
import type { TxContext } from "../context";
import type { SubscriptionRow } from "../rows";
import { findLiveSubscription, findPlansByOnchainId } from "../repo";
import { findQuote, insertQuote, markQuoteUsed, pruneQuotes } from "./repo";
import type { QuoteRow } from "./rows";

export const QUOTE_TTL_MS = 15 * 60_000;

export interface QuoteRef {
  id: string;
  pricedAt: Date;
  expiresAt: Date;
}

/** The subscription's fields a change prices from: any of them moving makes a quote stale. */
const basisOf = (sub: SubscriptionRow): string =>
  JSON.stringify([
    sub.id,
    sub.status,
    sub.plan_id,
    sub.billing_period,
    String(sub.price_amount),
    sub.coupon_id,
    sub.coupon_applied_at,
    sub.period_index,
    sub.anchor_at.toISOString(),
    sub.current_period_start.toISOString(),
    sub.current_period_end.toISOString(),
    sub.scheduled_plan_id,
    sub.scheduled_billing_period,
  ]);

const amountsOf = (q: Quote) => ({
  invoiceTotal: q.change.invoice?.total ?? 0n,
  creditToBalance: q.change.creditToBalance,
  net: q.change.net,
});

/** Records what a preview priced; the company's quotes expired over a day ago go at the same time. */
export async function recordQuote(
  db: Db,
  tenant: Tenant,
  { companyId, request, quote }: { companyId: string; request: PlanChangeRequest; quote: Quote },
): Promise<QuoteRef> {
  const id = newId("quo");
  const pricedAt = quote.pricedAt;
  const expiresAt = new Date(pricedAt.getTime() + QUOTE_TTL_MS);
  const { invoiceTotal, creditToBalance, net } = amountsOf(quote);
  await pruneQuotes(db, tenant, companyId, pricedAt);
  await insertQuote(db, tenant, {
    id,
    companyId,
    subscriptionId: quote.sub.id,
    planId: quote.target.planId,
    billingPeriod: quote.target.billingPeriod,
    couponCode: request.couponCode,
    effective: quote.change.effective,
    basis: basisOf(quote.sub),
    pricedAt,
    expiresAt,
    invoiceTotal,
    creditToBalance,
    net,
  });
  return { id, pricedAt, expiresAt };
}

/**
 * The terms and instant a change given `quoteId` prices with, checked before anything is written: the quote is
 * this company's, unexpired, unused and still stands for its live subscription, and the body names no other
 * terms than the quote's.
 */
export async function quotedRequest(
  db: Db,
  tenant: Tenant,
  { companyId, quoteId, body, now }: { companyId: string; quoteId: string; body: PlanChangeRequest; now: Date },
): Promise<{ request: PlanChangeRequest; pricedAt: Date }> {
  const row = await findQuote(db, tenant, companyId, quoteId);
  if (!row) throw apiError("quote_not_found", `No quote ${quoteId} for this company`);
  const mismatch: Record<string, string> = {};
  if (!(await namesPlan(db, tenant, body.planId, row.plan_id))) mismatch["body.planId"] = `The quote prices plan ${row.plan_id}`;
  if (body.billingPeriod !== null && body.billingPeriod !== row.billing_period)
    mismatch["body.billingPeriod"] = `The quote prices ${row.billing_period}`;
  if (body.couponCode !== null && body.couponCode.toLowerCase() !== (row.coupon_code ?? "").toLowerCase())
    mismatch["body.couponCode"] = row.coupon_code ? `The quote prices coupon ${row.coupon_code}` : "The quote prices no coupon";
  if (body.effective !== null && body.effective !== row.effective) mismatch["body.effective"] = `The quote takes effect ${row.effective}`;
  if (Object.keys(mismatch).length > 0) throw apiError("validation_failed", "Validation failed", mismatch);
  assertStands(row, await findLiveSubscription(db, tenant, companyId), now);
  return {
    request: { planId: row.plan_id, billingPeriod: row.billing_period, couponCode: row.coupon_code, effective: row.effective },
    pricedAt: row.priced_at,
  };
}

/** Our plan id, or an on-chain id of that plan. */
async function namesPlan(db: Db, tenant: Tenant, given: string, planId: string): Promise<boolean> {
  return given === planId || (await findPlansByOnchainId(db, tenant, given)).some((m) => m.plan_id === planId);
}

/** Unused, unexpired, and made against the subscription as it is now. */
function assertStands(row: QuoteRow, sub: SubscriptionRow | null | undefined, now: Date): void {
  if (row.used_at) throw apiError("quote_used", `Quote ${row.id} was used at ${row.used_at.toISOString()}; preview the change again`);
  if (now >= row.expires_at) throw apiError("quote_expired", `Quote ${row.id} expired at ${row.expires_at.toISOString()}; preview the change again`);
  if (!sub || sub.id !== row.subscription_id || basisOf(sub) !== row.basis)
    throw apiError("quote_stale", `The subscription moved since quote ${row.id} was made; preview the change again`);
}

/** Under the subscription's lock, before the change is priced again: the quote still stands for the locked row. */
export async function assertQuoteStands(c: TxContext, companyId: string, quoteId: string, locked: SubscriptionRow): Promise<void> {
  assertStands((await findQuote(c.tx, c.tenant, companyId, quoteId))!, locked, c.now);
}

/**
 * The quote made again from the locked row at the quote's instant (`again`) comes to the recorded amounts (the
 * credit balance and tax rate are not in the basis), and the quote is used; anything else refuses the change
 * before it writes.
 */
export async function useQuote(c: TxContext, companyId: string, quoteId: string, again: Quote): Promise<void> {
  const row = (await findQuote(c.tx, c.tenant, companyId, quoteId))!;
  const amounts = amountsOf(again);
  const same =
    row.effective === again.change.effective &&
    row.invoice_total === amounts.invoiceTotal &&
    row.credit_to_balance === amounts.creditToBalance &&
    row.net === amounts.net;
  if (!same) throw apiError("quote_stale", `The credit balance or tax rate moved since quote ${quoteId} was made; preview the change again`);
  if (!(await markQuoteUsed(c.tx, c.tenant, quoteId, c.now)))
    throw apiError("quote_used", `Quote ${quoteId} was used by another change; preview the change again`);
}
