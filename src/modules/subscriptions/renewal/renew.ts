/**
 * One subscription's renewal (the `subscriptions.renew` job, one job per subscription so a slow chain call
 * holds up no other): prepare in one transaction (the period's invoice issued, the pending chain operation
 * under its reference), pull through the mandate outside any transaction, record the outcome (outcome.ts).
 * Safe to run twice at once or again: the row lock, the one-pending-operation index, the invoice's source key
 * and the one-renewal-per-period index each stop a second pull; an unknown outcome stays pending for the
 * reconciliation job.
 */
import { OUTCOME_UNKNOWN } from "../../../chains/subscription-types";
import { findToken } from "../../../lib/networks";
import { newId } from "../../../lib/ids";
import { microToTokenCeil } from "../../../lib/money";
import { periodAt } from "../../../lib/period";
import type { Tenant } from "../../../lib/tenant";
import type { Actor } from "../../audit/repo";
import { findCouponById } from "../../catalog/coupons/repo";
import { findPlanFull } from "../../catalog/plans/repo";
import { addBalanceEntry, customerBalance } from "../../invoices/credit-notes/repo";
import { createInvoice } from "../../invoices/lifecycle/transitions";
import { findInvoiceBySource } from "../../invoices/repo";
import { creditLine, periodLines } from "../billing-lines";
import { cancelNow } from "../cancellation/cancel";
import { invoiceContext, type SubscriptionDeps, type TxContext } from "../context";
import {
  countCharges,
  endMandate,
  findPendingCharge,
  insertCharge,
  lockMandateOf,
  lockSubscription,
  saveSubscription,
  setCompanyPlanAnchored,
  subscriptionSettings,
} from "../repo";
import { NOTHING_SCHEDULED, type ChargeRow, type SubscriptionRow } from "../rows";
import { failAttempt, markRenewed, recordLanded, recordRefused, type RenewalOutcome } from "./outcome";
import { refreshLapsedMandate } from "../mandates/refresh";
import { chainReference, periodInvoiceSource, periodKey } from "../reference";
import { pullThroughMandate } from "../mandates/pull";
import { planTerms } from "../activation/terms";
import { emitEvent } from "../../webhooks/emit";
import { presentMandate, presentSubscription } from "../present";
import { publishCompanyChanged } from "../../changes/publish";
import { findCompanyByKeys } from "../../customers/repo";

export const RENEWAL_ACTOR: Actor = { kind: "system", id: "subscriptions.renew", requestId: null };

export async function renewSubscription(deps: SubscriptionDeps, tenant: Tenant, subscriptionId: string, now: Date): Promise<RenewalOutcome> {
  // A lapsed approval the payer renewed on chain revives the mandate before the renewal looks at it.
  await refreshLapsedMandate({ deps, tenant, actor: RENEWAL_ACTOR, now }, subscriptionId);
  const prepared = await deps.sql.begin((tx) => prepareRenewal({ deps, tx, tenant, actor: RENEWAL_ACTOR, now }, subscriptionId));
  if (!("charge" in prepared)) return prepared.outcome;
  const { charge, sub } = prepared;
  const op = await pullThroughMandate(deps, sub, charge);
  if (op.ok) return recordLanded({ deps, tenant, actor: RENEWAL_ACTOR, now }, charge, op);
  if (OUTCOME_UNKNOWN.has(op.reason)) return "pending";
  return recordRefused({ deps, tenant, actor: RENEWAL_ACTOR, now }, charge, op);
}

type Prepared = { outcome: RenewalOutcome } | { charge: ChargeRow; sub: SubscriptionRow };

async function prepareRenewal(c: TxContext, id: string): Promise<Prepared> {
  const locked = await lockSubscription(c.tx, c.tenant, id);
  if (!locked || !["TRIALING", "ACTIVE", "PAST_DUE"].includes(locked.status)) return { outcome: "skipped" };
  if (!locked.next_attempt_at || locked.next_attempt_at > c.now) return { outcome: "skipped" };
  if (await findPendingCharge(c.tx, c.tenant, id)) return { outcome: "pending" };
  // Every row this transaction writes, locked before the audit chain's lock (issuing the period's invoice takes it,
  // held to commit): the company (a scheduled plan change sets its plan) and the mandate (mandateRefusal), which
  // PATCH /companies/{id} and POST /mandates/revoke lock before they audit.
  await findCompanyByKeys(c.tx, c.tenant, { id: locked.company_id });
  await lockMandateOf(c.tx, c.tenant, id);
  let sub = locked;
  // A new period starts only once the current one has ended and is paid: a deferred retry (even one deferred
  // past the period's end), or an attempt on a PAST_DUE subscription, charges the current period's open invoice.
  const open = await findInvoiceBySource(c.tx, c.tenant, "subscription", periodInvoiceSource(sub.id, sub.current_period_start));
  const unpaid = open !== undefined && open.status !== "VOID" && open.amount_outstanding > 0n;
  if (sub.status !== "PAST_DUE" && !unpaid && c.now >= sub.current_period_end) {
    if (sub.cancel_at_period_end) {
      await cancelNow(c, sub, "canceled at period end");
      return { outcome: "canceled" };
    }
    sub = await startNextPeriod(c, sub);
  }
  const invoice = (await findInvoiceBySource(c.tx, c.tenant, "subscription", periodInvoiceSource(sub.id, sub.current_period_start)))!;
  if (invoice.amount_outstanding === 0n) return { outcome: invoice.status === "PAID" ? await renewedWithoutPull(c, sub) : "skipped" };
  const network = c.deps.chains.get(sub.network)!;
  const amount = microToTokenCeil(invoice.amount_outstanding, findToken(network, sub.token_symbol)!.decimals);
  const unpayable = await mandateRefusal(c, sub, amount.ok ? amount.value : null);
  if (unpayable) return { outcome: await failAttempt(c, sub, unpayable) };
  // Each attempt at the period has its own reference (the chain's idempotency key): a retry after a refusal is
  // a new operation; a lost answer is looked up under the pending row's reference, never re-sent under a new one.
  const attempt = await countCharges(c.tx, c.tenant, sub.id, { kind: "renewal", periodStart: sub.current_period_start });
  const reference = chainReference(c.tenant, "renewal", sub.id, periodKey(sub.current_period_start), String(attempt));
  const charge = await insertCharge(
    c.tx,
    c.tenant,
    {
      id: newId("sch"),
      subscriptionId: sub.id,
      kind: "renewal",
      reference,
      network: sub.network,
      periodStart: sub.current_period_start,
      attempt,
      invoiceId: invoice.id,
      amount: amount.ok ? amount.value : 0n,
    },
    c.now,
  );
  if (!charge) return { outcome: "pending" };
  await saveSubscription(c.tx, c.tenant, { ...sub, next_attempt_at: null }, c.now);
  return { charge, sub };
}

/**
 * Moves to the next period: a scheduled change takes effect (a new billing period restarts the anchor at the
 * old period's end), the period advances from the anchor, and its invoice is issued (the company's credit
 * balance drawn first). A trial's end starts period 0.
 */
async function startNextPeriod(c: TxContext, sub: SubscriptionRow): Promise<SubscriptionRow> {
  let next = sub;
  let index = sub.status === "TRIALING" ? 0 : sub.period_index + 1;
  if (sub.scheduled_plan_id && sub.scheduled_billing_period) {
    const plan = await findPlanFull(c.tx, c.tenant, sub.scheduled_plan_id);
    const terms = await planTerms(c.tx, c.tenant, {
      planId: sub.scheduled_plan_id,
      period: sub.scheduled_billing_period,
      name: plan?.name ?? sub.scheduled_plan_id,
      trialDays: 0,
    });
    const newAnchor = terms.billingPeriod !== sub.billing_period;
    next = {
      ...next,
      plan_id: terms.planId,
      billing_period: terms.billingPeriod,
      price_amount: terms.price,
      // The coupon the change scheduled with it (carried over or redeemed), or none.
      coupon_id: sub.scheduled_coupon_id,
      coupon_applied_at: sub.scheduled_coupon_applied_at ?? 0,
      ...NOTHING_SCHEDULED,
      anchor_at: newAnchor ? sub.current_period_end : sub.anchor_at,
    };
    if (newAnchor) index = 0;
  }
  const period = periodAt(next.anchor_at.getTime(), next.billing_period, index);
  next = { ...next, period_index: index, current_period_start: new Date(period.start), current_period_end: new Date(period.end) };
  const source = periodInvoiceSource(sub.id, next.current_period_start);
  if (!(await findInvoiceBySource(c.tx, c.tenant, "subscription", source))) await issuePeriodInvoice(c, next, source);
  const saved = await saveSubscription(c.tx, c.tenant, next, c.now);
  if (sub.scheduled_plan_id) {
    // The scheduled change takes effect: the company's entitlements follow the new plan from this period.
    await setCompanyPlanAnchored(c.tx, c.tenant, saved.company_id, { planId: saved.plan_id, anchor: saved.anchor_at });
    await publishCompanyChanged(c.tx, c.tenant, saved.company_id);
    const change = { fromPlanId: sub.plan_id, effective: "period_end", applied: true };
    await emitEvent(c, "subscription.plan_changed", { lazy: () => ({ ...presentSubscription(saved), change }) }, { at: c.now });
  }
  return saved;
}

async function issuePeriodInvoice(c: TxContext, sub: SubscriptionRow, source: string): Promise<void> {
  const plan = await findPlanFull(c.tx, c.tenant, sub.plan_id);
  const settings = await subscriptionSettings(c.tx, c.tenant);
  const lines = periodLines({
    planId: sub.plan_id,
    planName: plan?.name ?? sub.plan_id,
    billingPeriod: sub.billing_period,
    price: sub.price_amount,
    currency: sub.currency,
    start: sub.current_period_start,
    end: sub.current_period_end,
    // The coupon counts its own periods from the one it was applied at (plan-change/proration-terms.ts).
    periodIndex: sub.period_index - sub.coupon_applied_at,
    coupon: sub.coupon_id ? ((await findCouponById(c.tx, c.tenant, sub.coupon_id)) ?? null) : null,
    taxRate: settings.taxRate,
  });
  const credit = creditLine(lines, await customerBalance(c.tx, c.tenant, sub.company_id, sub.currency), sub.currency);
  const invoice = await createInvoice(
    invoiceContext(c),
    {
      currency: sub.currency,
      network: sub.network,
      companyId: sub.company_id,
      customerEmail: sub.subscriber_email,
      customerWallet: sub.payment_account,
      planId: sub.plan_id,
      lines: credit ? [...lines, credit] : lines,
      metadata: { subscriptionId: sub.id, periodIndex: sub.period_index },
    },
    { issue: true, source: { kind: "subscription", id: source } },
  );
  if (credit)
    await addBalanceEntry(
      c.tx,
      c.tenant,
      { companyId: sub.company_id, currency: sub.currency, amount: credit.unitAmount, reason: `Applied to ${invoice.number}`, invoiceId: invoice.id },
      c.now,
    );
}

/** The period's invoice is already settled (credit balance, a payment proof): renewed without a pull. */
async function renewedWithoutPull(c: TxContext, sub: SubscriptionRow): Promise<RenewalOutcome> {
  await markRenewed(c, sub, { pulled: false });
  return "renewed";
}

/**
 * Why the mandate cannot pay `amount` (null: it can): not active, past its expiry, or its remaining amount
 * below the charge (the mandate then EXPIRES, BILLING.md), or an amount the token cannot represent.
 */
async function mandateRefusal(c: TxContext, sub: SubscriptionRow, amount: bigint | null): Promise<{ reason: string; detail: string } | null> {
  if (amount === null) return { reason: "reverted", detail: `The amount due cannot be paid in ${sub.token_symbol}` };
  const mandate = await lockMandateOf(c.tx, c.tenant, sub.id);
  if (!mandate) return { reason: "autopay_not_installed", detail: "The subscription has no mandate" };
  if (mandate.status !== "ACTIVE") return { reason: "revoked", detail: `Mandate ${mandate.id} is ${mandate.status}` };
  const expiry =
    mandate.expires_at && mandate.expires_at <= c.now
      ? "expires_at_passed"
      : BigInt(mandate.remaining_amount) < amount
        ? "remaining_below_next_charge"
        : null;
  if (!expiry) return null;
  const expired = (await endMandate(c.tx, c.tenant, mandate.id, { end: { status: "EXPIRED", reason: expiry }, now: c.now }))!;
  await emitEvent(c, "mandate.expired", { lazy: () => presentMandate(expired) }, { at: c.now });
  return { reason: "autopay_expired", detail: `Mandate ${mandate.id} expired (${expiry})` };
}
