/**
 * Builders for the plan-change tests, and the arithmetic they check against, written independently of
 * src/lib/money and the coupon code (so a shared mistake cannot agree with itself).
 */
import { periodAt, type Interval } from "../../src/lib/period";
import type { CouponRow } from "../../src/modules/catalog/coupons/rows";
import type { PlanChangeInput, SubscriptionTerms } from "../../src/modules/subscriptions/plan-change/proration";

export const USDC = "USDC";
export const at = (text: string) => new Date(Date.parse(text));

export function coupon(over: Partial<CouponRow> = {}): CouponRow {
  return {
    id: `coupon_${over.code ?? "SAVE20"}`,
    code: "SAVE20",
    name: "Save 20",
    percent_off_bp: 2000,
    amount_off: null,
    currency: null,
    duration: "forever",
    duration_periods: null,
    max_redemptions: null,
    redemptions: 0,
    expires_at: null,
    plan_ids: [],
    archived_at: null,
    created_at: new Date(0),
    seq: 1n,
    ...over,
  };
}

/** Terms on period `index` of `anchor`, as the subscription row would hold them. */
export function terms(
  anchor: Date,
  billingPeriod: Interval,
  index: number,
  plan: { planId: string; price: bigint; coupon?: CouponRow | null; couponAppliedAt?: number },
): SubscriptionTerms {
  const p = periodAt(anchor.getTime(), billingPeriod, index);
  return {
    planId: plan.planId,
    planName: plan.planId[0]!.toUpperCase() + plan.planId.slice(1),
    billingPeriod,
    price: plan.price,
    coupon: plan.coupon ?? null,
    couponAppliedAt: plan.couponAppliedAt ?? 0,
    anchor,
    periodIndex: index,
    periodStart: new Date(p.start),
    periodEnd: new Date(p.end),
  };
}

export function change(
  current: SubscriptionTerms,
  now: Date,
  target: { planId: string; price: bigint; billingPeriod?: Interval },
  over: Partial<PlanChangeInput> = {},
): PlanChangeInput {
  const planName = target.planId[0]!.toUpperCase() + target.planId.slice(1);
  return {
    current,
    target: { planId: target.planId, planName, billingPeriod: target.billingPeriod ?? current.billingPeriod, price: target.price },
    couponRedeemed: null,
    currency: USDC,
    taxRate: 0n,
    creditBalance: 0n,
    now,
    ...over,
  };
}

/** n / d rounded half away from zero (d > 0). */
export function roundHalfAway(n: bigint, d: bigint): bigint {
  const sign = n < 0n ? -1n : 1n;
  const a = n * sign;
  return sign * (a / d + (2n * (a % d) >= d ? 1n : 0n));
}

/** One period's price less the coupon, for coupon period `couponPeriod` (0: the coupon's first). */
export function expectedNet(price: bigint, c: CouponRow | null, couponPeriod: number): bigint {
  if (!c || couponPeriod < 0) return price;
  const applies = c.duration === "forever" || (c.duration === "once" ? couponPeriod === 0 : couponPeriod < c.duration_periods!);
  if (!applies) return price;
  const off = c.percent_off_bp !== null ? roundHalfAway(price * BigInt(c.percent_off_bp), 10_000n) : c.amount_off! < price ? c.amount_off! : price;
  return price - off;
}

export const netOf = (t: SubscriptionTerms) => expectedNet(t.price, t.coupon, t.periodIndex - t.couponAppliedAt);

/** A whole priced line's total: amount + round(amount x rate / 10^6). */
export const taxed = (amount: bigint, rate: bigint) => amount + roundHalfAway(amount * rate, 1_000_000n);
