/**
 * Properties of planChange (src/modules/subscriptions/plan-change/proration.ts) over random periods (monthly and
 * yearly, anchors on month ends and Feb 29 among any instants), prices from 1 micro-unit to $1,000,000,
 * change times anywhere in the period by the second, coupons (percent or amount off; once, repeating,
 * forever; plan lists) and tax rates. The expected arithmetic comes from proration-fixtures.ts, written
 * apart from the code under test.
 */
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { addMonths, type Interval } from "../../src/lib/period";
import type { CouponRow } from "../../src/modules/catalog/coupons/rows";
import { priceLine, sumLines } from "../../src/modules/invoices/compute";
import { planChange, type PlanChange, type PlanChangeInput, type SubscriptionTerms } from "../../src/modules/subscriptions/plan-change/proration";
import { change, coupon, expectedNet, netOf, taxed, terms } from "./proration-fixtures";

const RUNS = { numRuns: 400 };
const PLANS = ["basic", "pro", "team"];
const MONTHS: Record<Interval, number> = { monthly: 1, yearly: 12 };
const SECOND = 1000;

const interval = fc.constantFrom<Interval>("monthly", "yearly");
const daySecond = fc.integer({ min: 0, max: 86_399 });
const anchor = fc
  .oneof(
    fc.integer({ min: 0, max: Date.UTC(2190, 0, 1) / SECOND }).map((s) => s * SECOND),
    fc.tuple(fc.integer({ min: 1970, max: 2190 }), fc.integer({ min: 0, max: 11 }), daySecond).map(([y, m, s]) => Date.UTC(y, m + 1, 0) + s * SECOND),
    fc.tuple(fc.integer({ min: 493, max: 547 }), daySecond).map(([q, s]) => Date.UTC(q * 4, 1, 29) + s * SECOND),
  )
  .map((ms) => new Date(ms));
const price = fc.oneof(fc.bigInt({ min: 1n, max: 1_000n }), fc.bigInt({ min: 1n, max: 10n ** 12n }));
const taxRate = fc.oneof(fc.constantFrom(0n, 100_000n, 72_500n, 1_000_000n), fc.bigInt({ min: 0n, max: 1_000_000n }));
const couponArb = (planLists: boolean): fc.Arbitrary<CouponRow> =>
  fc
    .record({
      percent: fc.option(fc.integer({ min: 1, max: 10_000 }), { nil: null }),
      amount: fc.oneof(fc.bigInt({ min: 1n, max: 1_000n }), fc.bigInt({ min: 1n, max: 10n ** 12n })),
      duration: fc.constantFrom("once" as const, "repeating" as const, "forever" as const),
      periods: fc.integer({ min: 1, max: 6 }),
      plans: planLists ? fc.subarray(PLANS) : fc.constant<string[]>([]),
      code: fc.constantFrom("A", "B", "C"),
    })
    .map((c) =>
      coupon({
        code: c.code,
        percent_off_bp: c.percent,
        amount_off: c.percent === null ? c.amount : null,
        currency: c.percent === null ? "usdc" : null,
        duration: c.duration,
        duration_periods: c.duration === "repeating" ? c.periods : null,
        plan_ids: c.plans,
      }),
    );
/** Where in the period the change falls: its first second, its last, or any whole second. */
const offset = fc.oneof(fc.constant(0), fc.constant(-1), fc.nat());
const secondIn = (t: SubscriptionTerms, n: number) => {
  const seconds = (t.periodEnd.getTime() - t.periodStart.getTime()) / SECOND;
  return new Date(t.periodStart.getTime() + (n < 0 ? seconds - 1 : n % seconds) * SECOND);
};

const current = fc
  .record({
    anchor,
    interval,
    index: fc.integer({ min: 0, max: 30 }),
    planId: fc.constantFrom(...PLANS),
    price,
    coupon: fc.option(couponArb(false), { nil: null }),
    couponAge: fc.nat(8),
  })
  .map((c) => terms(c.anchor, c.interval, c.index, { ...c, couponAppliedAt: Math.max(0, c.index - c.couponAge) }));

const scenario = fc
  .record({
    current,
    planId: fc.constantFrom(...PLANS),
    price,
    switchInterval: fc.oneof({ weight: 3, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
    redeemed: fc.option(couponArb(true), { nil: null, freq: 3 }),
    taxRate,
    creditBalance: fc.oneof(fc.constant(0n), fc.bigInt({ min: 1n, max: 10n ** 12n })),
    at: offset,
    when: fc.constantFrom(undefined, "now" as const, "period_end" as const),
  })
  .map((s): PlanChangeInput => {
    const billingPeriod = s.switchInterval ? (s.current.billingPeriod === "monthly" ? "yearly" : "monthly") : s.current.billingPeriod;
    const { taxRate, creditBalance, when } = s;
    return change(
      s.current,
      secondIn(s.current, s.at),
      { planId: s.planId, price: s.price, billingPeriod },
      { couponRedeemed: s.redeemed, taxRate, creditBalance, when },
    );
  });

function decided(input: PlanChangeInput): PlanChange | null {
  const result = planChange(input);
  if (result.ok) return result;
  // the only refusal a scenario can meet: a redeemed coupon limited to other plans
  expect(result.code).toBe("coupon_not_applicable");
  expect(input.couponRedeemed!.plan_ids).not.toContain(input.target.planId);
  return null;
}
const secondsLeft = (t: SubscriptionTerms, now: Date) => BigInt(Math.floor((t.periodEnd.getTime() - now.getTime()) / SECOND));
const periodLength = (t: SubscriptionTerms) => BigInt((t.periodEnd.getTime() - t.periodStart.getTime()) / SECOND);
const abs = (n: bigint) => (n < 0n ? -n : n);
/** A property of the decisions for scenarios whose change is made now. */
const madeNow = (check: (input: PlanChangeInput, d: PlanChange) => void) => () =>
  fc.assert(
    fc.property(scenario, (s) => {
      const input = { ...s, when: "now" as const };
      const d = decided(input);
      if (d) check(input, d);
    }),
    RUNS,
  );

describe("preview == charge", () => {
  test("the same input gives the same decision, leaves the input as it was, and its lines priced as an invoice prices them sum to the net", () => {
    fc.assert(
      fc.property(scenario, (input) => {
        const before = structuredClone(input);
        expect(planChange(input)).toEqual(planChange(input));
        expect(input).toEqual(before);
        const d = decided(input);
        if (!d) return;
        expect(sumLines(d.lines.map(priceLine)).total).toBe(d.net);
        expect(d.creditToBalance).toBe(d.net < 0n ? -d.net : 0n);
        if (d.net <= 0n) return expect(d.invoice).toBeNull();
        const drawn = input.creditBalance < d.net ? input.creditBalance : d.net;
        expect(d.invoice!.balanceApplied).toBe(drawn);
        expect(sumLines(d.invoice!.lines.map(priceLine)).total).toBe(d.invoice!.total);
        expect(d.invoice!.total).toBe(d.net - drawn);
      }),
      RUNS,
    );
  });
});

describe("one rounding per line", () => {
  test(
    "credit and charge are each within half a micro-unit of the exact fraction of the net price; the direction compares annualized net prices",
    madeNow((input, d) => {
      if (!d.changed) return;
      const cur = input.current;
      const [left, period] = [secondsLeft(cur, input.now), periodLength(cur)];
      expect(abs(2n * d.credit * period - 2n * netOf(cur) * left) <= period).toBe(true);
      const next = netOf(d.subscription);
      if (d.intervalChange) expect(d.charge).toBe(next);
      else expect(abs(2n * d.charge * period - 2n * next * left) <= period).toBe(true);
      const [a, b] = [netOf(cur) * BigInt(MONTHS[input.target.billingPeriod]), next * BigInt(MONTHS[cur.billingPeriod])];
      expect(d.kind).toBe(b > a ? "upgrade" : b < a ? "downgrade" : "same");
      // one line each: the credit, then the charge (an interval change: the new period's price and coupon)
      const [first, ...rest] = d.lines;
      if (d.credit > 0n) expect(first).toMatchObject({ kind: "proration", unitAmount: -d.credit, taxRate: input.taxRate });
      const charged = d.credit > 0n ? rest : d.lines;
      expect(charged.reduce((sum, l) => sum + l.unitAmount, 0n)).toBe(d.charge);
      if (!d.intervalChange) expect(charged.length).toBe(d.charge > 0n ? 1 : 0);
    }),
  );
});

describe("the customer never pays twice for the same second", () => {
  const step = fc.record({
    at: offset,
    planId: fc.constantFrom(...PLANS),
    price,
    redeemed: fc.option(couponArb(false), { nil: null, freq: 4 }),
  });

  test("over changes made now within one period, what was paid (the period's invoice, then every net) is the integral of the price in force, within a micro-unit per change before tax", () => {
    fc.assert(
      fc.property(current, fc.array(step, { minLength: 1, maxLength: 6 }), taxRate, (start, steps, rate) => {
        const times = steps.map((s) => secondIn(start, s.at)).sort((x, y) => x.getTime() - y.getTime());
        const period = periodLength(start);
        // the period's own invoice: the plan's price and the coupon's discount, each a taxed line
        const off = start.price - netOf(start);
        let paidSubtotal = netOf(start);
        let paid = taxed(start.price, rate) + taxed(-off, rate);
        let inForce = start;
        let exact = 0n; // sum of net price x seconds in force, over `period`
        let from = start.periodStart;
        steps.forEach((s, i) => {
          const input = change(inForce, times[i]!, s, { couponRedeemed: s.redeemed, taxRate: rate, when: "now" });
          const d = decided(input)!;
          exact += netOf(inForce) * BigInt((times[i]!.getTime() - from.getTime()) / SECOND);
          paidSubtotal += sumLines(d.lines.map(priceLine)).subtotal;
          paid += d.net;
          [inForce, from] = [d.subscription, times[i]!];
        });
        exact += netOf(inForce) * BigInt((start.periodEnd.getTime() - from.getTime()) / SECOND);
        const k = BigInt(steps.length);
        expect(abs(paidSubtotal * period - exact) <= k * period).toBe(true);
        // tax included: one micro-unit for the period's two taxed lines, 1.5 per proration line
        const scale = 1_000_000n;
        expect(abs(paid * period * scale - exact * (scale + rate)) <= (1n + 3n * k) * period * scale).toBe(true);
      }),
      RUNS,
    );
  });
});

describe("the period's edges", () => {
  test("at its first second the whole charged amount is credited and the new net charged; in its last (partial) second nothing is", () => {
    fc.assert(
      fc.property(scenario, fc.integer({ min: 1, max: 999 }), (input, ms) => {
        const first = decided({ ...input, now: input.current.periodStart, when: "now" });
        if (!first?.changed) return;
        expect(first.credit).toBe(netOf(input.current));
        expect(first.charge).toBe(netOf(first.subscription));
        const last = decided({ ...input, now: new Date(input.current.periodEnd.getTime() - ms), when: "now" })!;
        expect(last.credit).toBe(0n);
        if (last.intervalChange) return expect(last.charge).toBe(netOf(last.subscription));
        expect([last.charge, last.lines, last.net, last.invoice]).toEqual([0n, [], 0n, null]);
      }),
      RUNS,
    );
  });

  test("outside the period the change is refused with period_not_current", () => {
    fc.assert(
      fc.property(scenario, fc.integer({ min: 0, max: 10 ** 10 }), fc.boolean(), (input, ms, before) => {
        const now = before ? new Date(input.current.periodStart.getTime() - 1 - ms) : new Date(input.current.periodEnd.getTime() + ms);
        expect(planChange({ ...input, now })).toMatchObject({ ok: false, code: "period_not_current" });
      }),
      RUNS,
    );
  });
});

describe("changes at period end", () => {
  test("a change at period end (asked for, or a downgrade by default) issues nothing now and schedules terms from the period's end", () => {
    fc.assert(
      fc.property(scenario, (input) => {
        const d = decided(input);
        if (!d?.changed) return;
        if (input.when === undefined) expect(d.effective).toBe(d.kind === "downgrade" ? "period_end" : "now");
        if (d.effective !== "period_end") return;
        expect([d.lines, d.net, d.invoice, d.creditToBalance, d.credit, d.charge]).toEqual([[], 0n, null, 0n, 0n, 0n]);
        expect(d.subscription).toEqual(input.current);
        const s = d.scheduled!;
        expect(s).toMatchObject({ planId: input.target.planId, billingPeriod: input.target.billingPeriod, price: input.target.price });
        expect(s.periodStart).toEqual(input.current.periodEnd);
        const anchorMs = d.intervalChange ? input.current.periodEnd.getTime() : input.current.anchor.getTime();
        const index = d.intervalChange ? 0 : input.current.periodIndex + 1;
        expect(s.periodEnd.getTime()).toBe(addMonths(anchorMs, (index + 1) * MONTHS[s.billingPeriod]));
        // a redeemed coupon's first period is the first scheduled one
        if (input.couponRedeemed) expect(s.periodIndex - s.couponAppliedAt).toBe(0);
      }),
      RUNS,
    );
  });

  test(
    "a change of billing period made now anchors a whole new period at now and carries a coupon's used periods",
    madeNow((input, d) => {
      if (!d.intervalChange) return;
      const s = d.subscription;
      expect([s.anchor, s.periodStart, s.periodIndex]).toEqual([input.now, input.now, 0]);
      expect(s.periodEnd.getTime()).toBe(addMonths(input.now.getTime(), MONTHS[s.billingPeriod]));
      const cur = input.current;
      if (!input.couponRedeemed && s.coupon) expect(s.periodIndex - s.couponAppliedAt).toBe(cur.periodIndex - cur.couponAppliedAt + 1);
      expect(d.charge).toBe(expectedNet(s.price, s.coupon, s.periodIndex - s.couponAppliedAt));
    }),
  );
});
