/**
 * A plan change quoted from the database as it stands (read only): the company's live subscription, the
 * plan asked for priced in its billing period, the coupon given (checked, not redeemed), the team's tax
 * rate and the company's credit balance, put through planChange() (proration.ts) at one instant. The preview
 * records it (quotes.ts) and returns it; the change quotes again inside its transaction, on the locked row, at the
 * same instant (the quote's, when it names one), so what it issues is what was quoted, or nothing.
 */
import type { Db } from "../../../db/queries";
import { apiError } from "../../../lib/errors";
import type { Interval } from "../../../lib/period";
import type { Tenant } from "../../../lib/tenant";
import type { CouponRow } from "../../catalog/coupons/rows";
import { findPlanFull } from "../../catalog/plans/repo";
import { checkCoupon } from "../../catalog/coupons/redeem";
import { findCouponById } from "../../catalog/coupons/repo";
import { customerBalance } from "../../invoices/credit-notes/repo";
import { findInvoiceBySource } from "../../invoices/repo";
import { LIVE_STATUSES, type SubscriptionRow } from "../rows";
import { periodInvoiceSource } from "../reference";
import { planChange, type PlanChange, type SubscriptionTerms, type TargetPlan } from "./proration";
import { changeKind, couponFits } from "./proration-terms";
import { findLiveSubscription, findPendingCharge, findPlansByOnchainId, subscriptionSettings } from "../repo";
import { planTerms } from "../activation/terms";

export interface PlanChangeRequest {
  /** our plan id, or the plan's on-chain id on the subscription's network */
  planId: string;
  /** null: the subscription's */
  billingPeriod: Interval | null;
  couponCode: string | null;
  /** null: now (the spec's route switches the plan now, downgrades too: BILLING.md "Plan change") */
  effective: "now" | "period_end" | null;
}

export interface Quote {
  /** the instant the change is priced at */
  pricedAt: Date;
  sub: SubscriptionRow;
  target: TargetPlan;
  /** the coupon given with the change, checked (a change that happens redeems it) */
  coupon: CouponRow | null;
  change: PlanChange;
}

/**
 * The company's live subscription a plan change applies to, or the 409 that says why there is none to change.
 * The row a change locks by id may have ended since it was read unlocked (canceled meanwhile): refused too.
 */
export function changeableSubscription(sub: SubscriptionRow | null | undefined): SubscriptionRow {
  if (!sub) throw apiError("plan_change_not_allowed", "The company has no live subscription; activate one with POST /subscriptions/activate");
  if (!LIVE_STATUSES.includes(sub.status)) throw apiError("plan_change_not_allowed", `Subscription ${sub.id} is ${sub.status}`);
  if (sub.status === "INCOMPLETE")
    throw apiError("operation_in_progress", "The subscription's activation is still under way", undefined, { "Retry-After": "30" });
  if (sub.status === "PAST_DUE")
    throw apiError("plan_change_not_allowed", "The subscription is past due: its open invoice must be paid before the plan changes");
  return sub;
}

/** Quotes against `sub` when the caller holds it locked; otherwise reads the company's live subscription. */
export async function quotePlanChange(
  db: Db,
  tenant: Tenant,
  { companyId, request, now, locked }: { companyId: string; request: PlanChangeRequest; now: Date; locked?: SubscriptionRow },
): Promise<Quote> {
  const sub = changeableSubscription(locked ?? (await findLiveSubscription(db, tenant, companyId)));
  const target = await targetPlan(db, tenant, sub, request);
  const current = await currentTerms(db, tenant, sub);
  const coupon = request.couponCode ? await givenCoupon(db, tenant, current, target, request.couponCode, sub.currency, now) : null;
  if (sub.status === "TRIALING") return { pricedAt: now, sub, target, coupon, change: trialChange(current, target, coupon, sub.currency) };
  const settings = await subscriptionSettings(db, tenant);
  const change = planChange({
    current,
    target,
    couponRedeemed: coupon,
    currency: sub.currency,
    taxRate: settings.taxRate,
    creditBalance: await customerBalance(db, tenant, sub.company_id, sub.currency),
    now,
    when: request.effective ?? "now",
  });
  if (!change.ok) {
    if (change.code === "coupon_not_applicable") throw apiError("coupon_not_applicable", change.message);
    throw apiError("plan_change_not_allowed", `${change.message}: the renewal is due; retry once it has run`);
  }
  await refuseOpenPeriod(db, tenant, sub);
  return { pricedAt: now, sub, target, coupon, change };
}

/**
 * The coupon `code` names, to be redeemed with the change; null when it is the subscription's own coupon: that
 * one is not redeemed again, it carries over still counting its periods (redeemed again, a once or repeating
 * coupon would restart, and a customer could renew its discount every period).
 */
async function givenCoupon(db: Db, tenant: Tenant, current: SubscriptionTerms, target: TargetPlan, code: string, currency: string, now: Date) {
  const own = current.coupon;
  if (!own || own.code.toLowerCase() !== code.toLowerCase()) return checkCoupon(db, tenant, { code, planId: target.planId }, now);
  if (!couponFits(own, target.planId, currency))
    throw apiError("coupon_not_applicable", `Coupon ${own.code} does not apply to plan ${target.planId} in ${currency}`);
  return null;
}

/**
 * The current period's invoice still open (a renewal deferred because our side could not charge leaves the
 * subscription ACTIVE on a new, unpaid period): its unused time was never paid, so it cannot be credited; as
 * for PAST_DUE, the invoice is paid first. A trial, or a period a change of billing period started (paid by the
 * change's own invoice), has no period invoice.
 */
async function refuseOpenPeriod(db: Db, tenant: Tenant, sub: SubscriptionRow): Promise<void> {
  if (sub.status === "TRIALING") return;
  const invoice = await findInvoiceBySource(db, tenant, "subscription", periodInvoiceSource(sub.id, sub.current_period_start));
  if (!invoice || invoice.status === "PAID") return;
  if (await findPendingCharge(db, tenant, sub.id))
    throw apiError("operation_in_progress", "The current period's renewal is in flight; retry shortly", undefined, { "Retry-After": "30" });
  throw apiError(
    "plan_change_not_allowed",
    `The current period's invoice ${invoice.number ?? invoice.id} is ${invoice.status}: it is paid (by the renewal's retry) before the plan changes`,
  );
}

/**
 * During a trial nothing was paid, so nothing is prorated: the plan (and billing period) switch at once and
 * the first paid period, at the trial's end (the anchor), bills the new terms.
 */
function trialChange(current: SubscriptionTerms, target: TargetPlan, redeemed: CouponRow | null, currency: string): PlanChange {
  if (redeemed && !couponFits(redeemed, target.planId, currency))
    throw apiError("coupon_not_applicable", `Coupon ${redeemed.code} does not apply to plan ${target.planId} in ${currency}`);
  const carried = current.coupon && couponFits(current.coupon, target.planId, currency) ? current.coupon : null;
  const coupon = redeemed ?? carried;
  const changed = target.planId !== current.planId || target.billingPeriod !== current.billingPeriod || redeemed !== null;
  return {
    ok: true,
    kind: changeKind(current, target),
    changed,
    intervalChange: target.billingPeriod !== current.billingPeriod,
    effective: "now",
    credit: 0n,
    charge: 0n,
    lines: [],
    net: 0n,
    invoice: null,
    creditToBalance: 0n,
    subscription: { ...current, ...target, coupon, couponAppliedAt: 0 },
    scheduled: null,
  };
}

/** The plan asked for, by our id or the on-chain id on the subscription's network, priced in the subscription's currency. */
async function targetPlan(db: Db, tenant: Tenant, sub: SubscriptionRow, request: PlanChangeRequest): Promise<TargetPlan> {
  const byId = await findPlanFull(db, tenant, request.planId);
  const onchain = byId ? null : (await findPlansByOnchainId(db, tenant, request.planId)).find((m) => m.network === sub.network);
  const plan = byId ?? (onchain ? await findPlanFull(db, tenant, onchain.plan_id) : null);
  if (!plan) throw apiError("plan_not_found", `No plan ${request.planId}`);
  if (plan.kind !== "plan")
    throw apiError("validation_failed", "Validation failed", { "body.planId": "Names an add-on; subscriptions are to plans" });
  if (plan.archived_at) throw apiError("plan_not_subscribable", `Plan ${plan.id} is archived`);
  const priced = await planTerms(db, tenant, { planId: plan.id, period: request.billingPeriod ?? sub.billing_period, name: plan.name, trialDays: 0 });
  if (priced.currency !== sub.currency)
    throw apiError("plan_not_subscribable", `Plan ${plan.id} is priced in ${priced.currency}; the subscription pays in ${sub.currency}`);
  return { planId: plan.id, planName: plan.name, billingPeriod: priced.billingPeriod, price: priced.price };
}

/** The subscription as proration.ts reads it. */
export async function currentTerms(db: Db, tenant: Tenant, sub: SubscriptionRow): Promise<SubscriptionTerms> {
  const plan = await findPlanFull(db, tenant, sub.plan_id);
  return {
    planId: sub.plan_id,
    planName: plan?.name ?? sub.plan_id,
    billingPeriod: sub.billing_period,
    price: sub.price_amount,
    coupon: sub.coupon_id ? ((await findCouponById(db, tenant, sub.coupon_id)) ?? null) : null,
    couponAppliedAt: sub.coupon_applied_at,
    anchor: sub.anchor_at,
    periodIndex: sub.period_index,
    periodStart: sub.current_period_start,
    periodEnd: sub.current_period_end,
  };
}
