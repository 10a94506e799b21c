/**
 * A plan change, computed (BILLING.md "Plan change"): the one pure function POST /companies/plan, its
 * dashboard preview and the CLI preview all run, so the preview IS the charge. No I/O; `now` is passed in.
 *
 * By the second: fraction = secondsRemaining(period, now) / periodSeconds(period) (a started second is
 * not left). credit = round(what this period actually charged before tax, the list price less the coupon
 * it had, x fraction); charge = round(the new terms' price less their coupon x fraction); one line each,
 * each rounded once (half away from zero), each taxed at the team's rate as its own line. The sum of the
 * priced lines is the net. A change of billing period (monthly <-> yearly) anchors a new period at `now`:
 * the credit for the unused old time, then the new period's lines as a renewal shows them (price, coupon).
 *
 * Direction: the net price of one period (coupons included, as they apply now) compared in the same
 * billing period; across billing periods both are annualized (monthly x 12) for the comparison only.
 * `when` absent: upgrades and equal prices switch now, downgrades wait for the period's end.
 * Net > 0: an invoice of the lines (the credit balance drawn last, as on renewals). Net < 0: no invoice;
 * the customer's credit balance gains -net, drawn by the next invoice.
 */
import { linesTotal, type LineInput } from "../../invoices/compute";
import { periodSeconds, secondsRemaining } from "../../../lib/period";
import { prorate } from "../../../lib/money";
import type { CouponRow } from "../../catalog/coupons/rows";
import { creditLine, periodLines } from "../billing-lines";
import { changeKind, netPrice, nextTerms, type ChangeKind, type SubscriptionTerms, type TargetPlan } from "./proration-terms";

export type { ChangeKind, SubscriptionTerms, TargetPlan } from "./proration-terms";

export interface PlanChangeInput {
  /** the subscription as it stands: its current period must contain `now` */
  current: SubscriptionTerms;
  target: TargetPlan;
  /** A coupon redeemed with this change (couponCode): it replaces the subscription's. Null: the subscription's coupon carries over when it fits the target plan, else it is dropped. */
  couponRedeemed: CouponRow | null;
  /** the subscription's currency (both prices are in it) */
  currency: string;
  /** 1/10000 of a percent */
  taxRate: bigint;
  /** what the company is owed in `currency` (its credit balance), drawn last on an invoice this change issues */
  creditBalance: bigint;
  now: Date;
  /** absent: upgrades and equal prices now, downgrades at period end */
  when?: "now" | "period_end";
}

export interface PlanChange {
  ok: true;
  kind: ChangeKind;
  /** false: the target is the current plan and billing period and no coupon was given; nothing moves (a scheduled change is dropped) */
  changed: boolean;
  intervalChange: boolean;
  effective: "now" | "period_end";
  /** before tax: the unused time credited, and what the new terms cost until their period's end */
  credit: bigint;
  charge: bigint;
  /** the computation's lines (credit, charge; zero ones left out); none for a change at period end */
  lines: LineInput[];
  /** the lines priced and summed, tax included; negative: owed to the customer */
  net: bigint;
  /** the invoice to issue now (net > 0): the lines, then the credit balance drawn; total may reach 0 */
  invoice: { lines: LineInput[]; total: bigint; balanceApplied: bigint } | null;
  /** what the customer's credit balance gains (net < 0), with no invoice */
  creditToBalance: bigint;
  /** the subscription to write now (unchanged for a change at period end) */
  subscription: SubscriptionTerms;
  /** the terms that start at the current period's end (their periodStart), or null: none (any earlier one is replaced) */
  scheduled: SubscriptionTerms | null;
}

export interface PlanChangeRefusal {
  ok: false;
  /** period_not_current: the current period does not contain `now` (a renewal is due: retry after it); coupon_not_applicable: the redeemed coupon does not fit the target plan or currency */
  code: "period_not_current" | "coupon_not_applicable";
  message: string;
}

const refuse = (code: PlanChangeRefusal["code"], message: string): PlanChangeRefusal => ({ ok: false, code, message });
const stamp = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, "Z");

function check(input: PlanChangeInput): void {
  const { current, target, taxRate, creditBalance } = input;
  if (current.price < 0n || target.price < 0n || creditBalance < 0n || taxRate < 0n || taxRate > 1_000_000n) {
    throw new RangeError("plan change: prices and the credit balance must not be negative, the tax rate within 0-100%");
  }
}

export function planChange(input: PlanChangeInput): PlanChange | PlanChangeRefusal {
  check(input);
  const { current, target, currency, taxRate, now } = input;
  if (now < current.periodStart || now >= current.periodEnd) {
    return refuse(
      "period_not_current",
      `The subscription's current period (${stamp(current.periodStart)} to ${stamp(current.periodEnd)}) does not contain ${stamp(now)}`,
    );
  }
  const intervalChange = target.billingPeriod !== current.billingPeriod;
  const none = { credit: 0n, charge: 0n, lines: [], net: 0n, invoice: null, creditToBalance: 0n, intervalChange };
  if (!intervalChange && target.planId === current.planId && !input.couponRedeemed) {
    return { ok: true, kind: "same", changed: false, effective: "now", ...none, subscription: current, scheduled: null };
  }
  const switched = nextTerms(current, target, { redeemed: input.couponRedeemed, currency, start: "now", now });
  if (!switched)
    return refuse("coupon_not_applicable", `Coupon ${input.couponRedeemed!.code} does not apply to plan ${target.planId} in ${currency}`);

  const oldNet = netPrice(current, currency);
  const newNet = netPrice(switched, currency);
  const kind = changeKind({ price: oldNet, billingPeriod: current.billingPeriod }, { price: newNet, billingPeriod: target.billingPeriod });
  const effective = input.when ?? (kind === "downgrade" ? "period_end" : "now");
  if (effective === "period_end") {
    const scheduled = nextTerms(current, target, { redeemed: input.couponRedeemed, currency, start: "period_end", now })!;
    return { ok: true, kind, changed: true, effective, ...none, subscription: current, scheduled };
  }

  const period = { index: current.periodIndex, start: current.periodStart.getTime(), end: current.periodEnd.getTime() };
  const left = secondsRemaining(period, now.getTime());
  const credit = prorate(oldNet, left, periodSeconds(period));
  const charge = intervalChange ? newNet : prorate(newNet, left, periodSeconds(period));
  const line = (description: string, amount: bigint, planId: string, end: Date): LineInput => ({
    description,
    quantity: 1n,
    unitAmount: amount,
    taxRate,
    kind: "proration",
    planId,
    periodStart: now,
    periodEnd: end,
  });
  const named = (t: SubscriptionTerms, net: bigint) => `${t.planName} (${t.billingPeriod}${net === t.price ? "" : `, coupon ${t.coupon!.code}`})`;
  const lines: LineInput[] = [];
  if (credit > 0n) lines.push(line(`Unused time on ${named(current, oldNet)} from ${stamp(now)}`, -credit, current.planId, current.periodEnd));
  if (intervalChange) {
    const couponPeriod = switched.periodIndex - switched.couponAppliedAt;
    const periodPrice = { ...switched, currency, start: now, end: switched.periodEnd, periodIndex: couponPeriod, taxRate };
    lines.push(...periodLines(periodPrice).filter((l) => l.unitAmount !== 0n));
  } else if (charge > 0n) {
    lines.push(line(`Remaining time on ${named(switched, newNet)} from ${stamp(now)}`, charge, switched.planId, switched.periodEnd));
  }
  const net = linesTotal(lines);
  const draw = net > 0n ? creditLine(lines, input.creditBalance, currency) : null;
  const invoice =
    net > 0n ? { lines: draw ? [...lines, draw] : lines, total: net + (draw?.unitAmount ?? 0n), balanceApplied: -(draw?.unitAmount ?? 0n) } : null;
  const creditToBalance = net < 0n ? -net : 0n;
  return {
    ok: true,
    kind,
    changed: true,
    intervalChange,
    effective,
    credit,
    charge,
    lines,
    net,
    invoice,
    creditToBalance,
    subscription: switched,
    scheduled: null,
  };
}
