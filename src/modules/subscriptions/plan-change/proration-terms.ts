/**
 * The terms a plan change moves between (plan, billing period, list price, coupon, anchor and period) and
 * what a whole period under them charges before tax.
 *
 * A subscription's coupon counts periods of its own: coupon period = periodIndex - couponAppliedAt (0 is
 * the first period it discounts; once / N periods / forever as couponAppliesToPeriod says). So:
 *   - a coupon redeemed with a change starts counting at the first period of the new terms (the current
 *     period for a change made now, the next one for a change at period end, period 0 after an interval
 *     change);
 *   - the subscription's coupon carried over a change of plan keeps counting where it was;
 *   - carried over a change of billing period (the anchor and the period index restart at 0), it keeps the
 *     periods already used, the current one counted as used: couponAppliedAt becomes -(periods used), so
 *     a "once" coupon used this month does not discount the new year, and "forever" still does.
 */
import { MONTHS, periodAt, type Interval } from "../../../lib/period";
import type { CouponRow } from "../../catalog/coupons/rows";
import { couponAppliesToPeriod, couponDiscount } from "../../catalog/coupons/redeem";

export interface SubscriptionTerms {
  planId: string;
  planName: string;
  billingPeriod: Interval;
  /** the list price of one period, micro-units (the subscription keeps it until a change or renewal re-reads it) */
  price: bigint;
  coupon: CouponRow | null;
  /** the period index where the coupon's first period falls; negative after an interval change (see above) */
  couponAppliedAt: number;
  anchor: Date;
  periodIndex: number;
  periodStart: Date;
  periodEnd: Date;
}

/** The plan asked for, priced for the billing period asked for (micro-units, in the subscription's currency). */
export interface TargetPlan {
  planId: string;
  planName: string;
  billingPeriod: Interval;
  price: bigint;
}

export type ChangeKind = "upgrade" | "downgrade" | "same";

/**
 * Upgrade, downgrade or the same: the price per month after the change against before (cross-multiplied by
 * the other's months, so a monthly and a yearly price compare without rounding).
 */
export function changeKind(before: { price: bigint; billingPeriod: Interval }, after: { price: bigint; billingPeriod: Interval }): ChangeKind {
  const [a, b] = [before.price * BigInt(MONTHS[after.billingPeriod]), after.price * BigInt(MONTHS[before.billingPeriod])];
  return b > a ? "upgrade" : b < a ? "downgrade" : "same";
}

/** Whether the coupon may discount `planId` priced in `currency`: its plan list, and an amount off's currency. */
export const couponFits = (c: CouponRow, planId: string, currency: string): boolean =>
  (c.plan_ids.length === 0 || c.plan_ids.includes(planId)) && (c.percent_off_bp !== null || c.currency?.toLowerCase() === currency.toLowerCase());

/** What one whole period under the terms charges before tax: the list price less the coupon while it applies. */
export function netPrice(terms: SubscriptionTerms, currency: string): bigint {
  const couponPeriod = terms.periodIndex - terms.couponAppliedAt;
  if (!terms.coupon || couponPeriod < 0 || !couponAppliesToPeriod(terms.coupon, couponPeriod)) return terms.price;
  return terms.price - couponDiscount(terms.coupon, terms.price, currency);
}

/** The coupon the new terms carry; null when the one redeemed with the change does not fit the target plan. */
function carriedCoupon(
  current: SubscriptionTerms,
  target: TargetPlan,
  redeemed: CouponRow | null,
  currency: string,
  startIndex: number,
): Pick<SubscriptionTerms, "coupon" | "couponAppliedAt"> | null {
  if (redeemed) return couponFits(redeemed, target.planId, currency) ? { coupon: redeemed, couponAppliedAt: startIndex } : null;
  if (!current.coupon || !couponFits(current.coupon, target.planId, currency)) return { coupon: null, couponAppliedAt: 0 };
  const sameInterval = target.billingPeriod === current.billingPeriod;
  return { coupon: current.coupon, couponAppliedAt: sameInterval ? current.couponAppliedAt : current.couponAppliedAt - current.periodIndex - 1 };
}

/**
 * The terms after the change, starting at `start`: for the same billing period the anchor and the period
 * stay (a change at period end moves to the next period of the same anchor); a change of billing period
 * anchors a new period 0 at `start`. Null: the redeemed coupon does not fit the target plan.
 */
export function nextTerms(
  current: SubscriptionTerms,
  target: TargetPlan,
  { redeemed, currency, start, now }: { redeemed: CouponRow | null; currency: string; start: "now" | "period_end"; now: Date },
): SubscriptionTerms | null {
  const plan = { planId: target.planId, planName: target.planName, billingPeriod: target.billingPeriod, price: target.price };
  if (target.billingPeriod !== current.billingPeriod) {
    const anchor = start === "now" ? now : current.periodEnd;
    const coupon = carriedCoupon(current, target, redeemed, currency, 0);
    const end = new Date(periodAt(anchor.getTime(), target.billingPeriod, 0).end);
    return coupon && { ...plan, ...coupon, anchor, periodIndex: 0, periodStart: anchor, periodEnd: end };
  }
  const index = start === "now" ? current.periodIndex : current.periodIndex + 1;
  const coupon = carriedCoupon(current, target, redeemed, currency, index);
  if (!coupon) return null;
  if (start === "now") return { ...current, ...plan, ...coupon };
  const next = periodAt(current.anchor.getTime(), target.billingPeriod, index);
  return { ...plan, ...coupon, anchor: current.anchor, periodIndex: index, periodStart: current.periodEnd, periodEnd: new Date(next.end) };
}
