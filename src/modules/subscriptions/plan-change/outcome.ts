/**
 * Writing a plan change: the terms switched now (with their webhook, audit entry and the company's plan),
 * a change scheduled for the period's end, and the outcome of a proration pull (landed: the invoice issued
 * and PAID by the pull, the mandate lowered, the terms switched; refused: the draft voided, the coupon and the
 * credit balance it drew given back, nothing switched). Whoever completes the pending pull first (the request,
 * or the reconciliation job) records it; the other finds it no longer pending.
 */
import type { ChainOperation, SubscriptionRefusal } from "../../../chains/subscription-types";
import { lockTransaction } from "../../transaction-claims/repo";
import { findToken } from "../../../lib/networks";
import { releaseRedemption } from "../../catalog/coupons/redeem";
import { publishCompanyChanged } from "../../changes/publish";
import { findCompanyByKeys } from "../../customers/repo";
import { addBalanceEntry } from "../../invoices/credit-notes/repo";
import { issueInvoice, voidInvoice } from "../../invoices/lifecycle/transitions";
import { emitEvent } from "../../webhooks/emit";
import type { Quote } from "./quote";
import { invoiceContext, type TxContext, type ServiceContext } from "../context";
import { audit } from "../activation/finalize";
import { NOTHING_SCHEDULED, type ChargeRow, type PendingChange, type SubscriptionRow } from "../rows";
import { presentSubscription } from "../present";
import { recordPull } from "../mandates/pull";
import { completeCharge, lockMandateOf, lockSubscription, saveSubscription, setChargePayment, setCompanyPlanAnchored } from "../repo";

/** The terms a quote switches to, as a pull's row stores them. */
export function pendingChangeOf(q: Quote, redemptionId: string | null): PendingChange {
  const t = q.change.subscription;
  return {
    planId: t.planId,
    billingPeriod: t.billingPeriod,
    price: t.price.toString(),
    couponId: t.coupon?.id ?? null,
    couponAppliedAt: t.couponAppliedAt,
    anchor: t.anchor.toISOString(),
    periodIndex: t.periodIndex,
    periodStart: t.periodStart.toISOString(),
    periodEnd: t.periodEnd.toISOString(),
    kind: q.change.kind,
    redemptionId,
    balanceApplied: (q.change.invoice?.balanceApplied ?? 0n).toString(),
  };
}

/**
 * Switches the subscription to `change` now: any scheduled change dropped, the next renewal at the (maybe
 * new) period's end, the company on the new plan (its anchor the subscription's), `creditToBalance` (an
 * immediate downgrade's unused time) added to the company's credit balance.
 */
export async function applyTerms(
  c: TxContext,
  sub: SubscriptionRow,
  change: PendingChange,
  paid: { invoiceId: string | null; creditToBalance: bigint },
): Promise<SubscriptionRow> {
  if (paid.creditToBalance > 0n)
    await addBalanceEntry(
      c.tx,
      c.tenant,
      {
        companyId: sub.company_id,
        currency: sub.currency,
        amount: paid.creditToBalance,
        reason: `Plan change: unused time on ${sub.plan_id}`,
        invoiceId: null,
      },
      c.now,
    );
  const switched = await saveSubscription(
    c.tx,
    c.tenant,
    {
      ...sub,
      plan_id: change.planId,
      billing_period: change.billingPeriod,
      price_amount: BigInt(change.price),
      coupon_id: change.couponId,
      coupon_applied_at: change.couponAppliedAt,
      anchor_at: new Date(change.anchor),
      period_index: change.periodIndex,
      current_period_start: new Date(change.periodStart),
      current_period_end: new Date(change.periodEnd),
      next_attempt_at: sub.status === "TRIALING" ? sub.next_attempt_at : new Date(change.periodEnd),
      ...NOTHING_SCHEDULED,
    },
    c.now,
  );
  await setCompanyPlanAnchored(c.tx, c.tenant, sub.company_id, { planId: switched.plan_id, anchor: switched.anchor_at });
  await publishCompanyChanged(c.tx, c.tenant, sub.company_id);
  const details = { fromPlanId: sub.plan_id, kind: change.kind, effective: "now", invoiceId: paid.invoiceId };
  await emitEvent(c, "subscription.plan_changed", { lazy: () => ({ ...presentSubscription(switched), change: details }) }, { at: c.now });
  await audit(c, "subscription.change_plan", switched, { ...details, creditToBalance: paid.creditToBalance.toString() });
  return switched;
}

/** Whether `q` schedules exactly the change `sub` already has scheduled (a retried request). */
export const alreadyScheduled = (sub: SubscriptionRow, q: Quote): boolean => {
  const next = q.change.scheduled!;
  return (
    sub.scheduled_plan_id === next.planId &&
    sub.scheduled_billing_period === next.billingPeriod &&
    sub.scheduled_coupon_id === (next.coupon?.id ?? null) &&
    sub.scheduled_coupon_applied_at === (next.coupon ? next.couponAppliedAt : null)
  );
};

/**
 * The coupon a scheduled change redeemed, given back: the change is replaced (by another change, now or at
 * period end) or undone before it took effect. Called before the transaction's first audit entry (the coupon's
 * row before the audit chain's lock, steps.ts requote); the caller clears the scheduled columns.
 */
export async function releaseScheduledCoupon(c: TxContext, sub: SubscriptionRow): Promise<void> {
  if (sub.scheduled_coupon_redemption_id) await releaseRedemption(c.tx, c.tenant, sub.scheduled_coupon_redemption_id, c.now);
}

/** A change at the period's end: the renewal that starts the next period applies it (renewal/renew.ts). Replaces any scheduled one. */
export async function applyScheduled(c: TxContext, sub: SubscriptionRow, q: Quote, redemptionId: string | null): Promise<SubscriptionRow> {
  const next = q.change.scheduled!;
  const scheduled = await saveSubscription(
    c.tx,
    c.tenant,
    {
      ...sub,
      scheduled_plan_id: next.planId,
      scheduled_billing_period: next.billingPeriod,
      scheduled_coupon_id: next.coupon?.id ?? null,
      scheduled_coupon_applied_at: next.coupon ? next.couponAppliedAt : null,
      scheduled_coupon_redemption_id: redemptionId,
    },
    c.now,
  );
  const details = {
    fromPlanId: sub.plan_id,
    toPlanId: next.planId,
    kind: q.change.kind,
    effective: "period_end",
    at: sub.current_period_end.toISOString(),
    redemptionId,
  };
  await emitEvent(c, "subscription.plan_changed", { lazy: () => ({ ...presentSubscription(scheduled), change: details }) }, { at: c.now });
  await audit(c, "subscription.schedule_plan_change", scheduled, details);
  return scheduled;
}

/**
 * The company asks for the terms it has while a change is scheduled: the scheduled change is dropped (its
 * coupon given back), so the subscription renews on what it has.
 */
export async function unschedule(c: TxContext, sub: SubscriptionRow): Promise<SubscriptionRow> {
  await releaseScheduledCoupon(c, sub);
  const kept = await saveSubscription(
    c.tx,
    c.tenant,
    {
      ...sub,
      ...NOTHING_SCHEDULED,
    },
    c.now,
  );
  const details = { fromPlanId: sub.plan_id, droppedPlanId: sub.scheduled_plan_id, effective: "period_end", unscheduled: true };
  await emitEvent(c, "subscription.plan_changed", { lazy: () => ({ ...presentSubscription(kept), change: details }) }, { at: c.now });
  await audit(c, "subscription.unschedule_plan_change", kept, details);
  return kept;
}

export async function recordChangeLanded(
  { deps, tenant, actor, now }: ServiceContext,
  charge: ChargeRow,
  op: ChainOperation,
): Promise<SubscriptionRow> {
  return deps.sql.begin(async (tx) => {
    const c: TxContext = { deps, tx, tenant, actor, now };
    const sub = (await lockSubscription(tx, tenant, charge.subscription_id))!;
    if (op.amount > 0n) await lockTransaction(tx, sub.network, op.txHash);
    // Every row before the audit chain's lock, which issuing the invoice takes (steps.ts requote).
    await findCompanyByKeys(tx, tenant, { id: sub.company_id });
    const mandate = await lockMandateOf(tx, tenant, sub.id);
    const completed = await completeCharge(tx, tenant, charge.id, { end: { status: "succeeded", txHash: op.txHash, paymentId: null }, now });
    if (!completed) return sub; // recorded by the other finisher
    await releaseScheduledCoupon(c, sub); // the change replaces any scheduled one
    await issueInvoice(invoiceContext(c), charge.invoice_id!);
    const token = findToken(deps.chains.get(sub.network)!, sub.token_symbol)!;
    const paymentId = await recordPull(c, sub, { invoiceId: charge.invoice_id, op, decimals: token.decimals, mandate: mandate ?? null });
    if (paymentId) await setChargePayment(tx, tenant, charge.id, paymentId);
    return applyTerms(c, sub, charge.change!, { invoiceId: charge.invoice_id, creditToBalance: 0n });
  });
}

export async function recordChangeRefused(
  { deps, tenant, actor, now }: ServiceContext,
  charge: ChargeRow,
  refusal: Pick<SubscriptionRefusal, "reason" | "detail">,
): Promise<void> {
  await deps.sql.begin(async (tx) => {
    const c: TxContext = { deps, tx, tenant, actor, now };
    const sub = (await lockSubscription(tx, tenant, charge.subscription_id))!;
    const completed = await completeCharge(tx, tenant, charge.id, { end: { status: "failed", reason: refusal.reason, detail: refusal.detail }, now });
    if (!completed) return;
    // The coupon's row before the audit chain's lock, which voiding takes (an activation redeeming the same
    // coupon locks it, then audits).
    if (charge.change!.redemptionId) await releaseRedemption(tx, tenant, charge.change!.redemptionId, now);
    const voided = await voidInvoice(invoiceContext(c), charge.invoice_id!);
    const drawn = BigInt(charge.change!.balanceApplied);
    if (drawn > 0n)
      await addBalanceEntry(
        tx,
        tenant,
        {
          companyId: sub.company_id,
          currency: sub.currency,
          amount: drawn,
          reason: `Released: ${voided.number ?? voided.id} voided`,
          invoiceId: voided.id,
        },
        now,
      );
    await audit(c, "subscription.plan_change_failed", sub, { toPlanId: charge.change!.planId, reason: refusal.reason });
  });
}
