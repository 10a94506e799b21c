/**
 * The lines of a subscription invoice for one period: the plan's price, the coupon's discount while the
 * coupon still applies to that period (once / N periods / forever, counted from the first paid period), both
 * taxed at the team's subscription tax rate (tax on the net: the discount line carries the same rate), and
 * the company's credit balance drawn last as an untaxed credit line, never past what the invoice asks.
 * One rounding per line and the total the sum of the lines: the invoice's own rule (linesTotal).
 */
import { couponAppliesToPeriod, couponDiscount } from "../catalog/coupons/redeem";
import type { CouponRow } from "../catalog/coupons/rows";
import { linesTotal, type LineInput } from "../invoices/compute";

export interface PeriodPrice {
  planId: string;
  planName: string;
  billingPeriod: string;
  /** the period's list price, micro-units */
  price: bigint;
  currency: string;
  start: Date;
  end: Date;
  /** which paid period this is (0: the first), for the coupon's duration */
  periodIndex: number;
  coupon: CouponRow | null;
  taxRate: bigint;
}

export function periodLines(p: PeriodPrice): LineInput[] {
  const common = { quantity: 1n, taxRate: p.taxRate, planId: p.planId, periodStart: p.start, periodEnd: p.end };
  const lines: LineInput[] = [{ ...common, description: `${p.planName} (${p.billingPeriod})`, unitAmount: p.price, kind: "item" }];
  if (p.coupon && couponAppliesToPeriod(p.coupon, p.periodIndex)) {
    const off = couponDiscount(p.coupon, p.price, p.currency);
    if (off > 0n) lines.push({ ...common, description: `Coupon ${p.coupon.code}`, unitAmount: -off, kind: "discount" });
  }
  return lines;
}

/** The credit line drawing `balance` (what the company is owed) against `lines`, or null when there is none to draw. */
export function creditLine(lines: readonly LineInput[], balance: bigint, currency: string): LineInput | null {
  const owed = linesTotal(lines);
  const draw = balance < owed ? balance : owed;
  if (draw <= 0n) return null;
  return { description: `Credit balance applied (${currency})`, quantity: 1n, unitAmount: -draw, taxRate: 0n, kind: "credit" };
}
