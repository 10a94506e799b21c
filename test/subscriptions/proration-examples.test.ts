/**
 * Plan changes with numbers worked by hand (planChange, src/modules/subscriptions/plan-change/proration.ts). Amounts
 * are micro-units: $10 = 10_000_000.
 */
import { describe, expect, test } from "bun:test";
import { planChange, type PlanChange, type PlanChangeInput } from "../../src/modules/subscriptions/plan-change/proration";
import { at, change, coupon, terms } from "./proration-fixtures";

const done = (input: PlanChangeInput): PlanChange => {
  const result = planChange(input);
  if (!result.ok) throw new Error(`refused: ${result.code}`);
  return result;
};
const amounts = (d: PlanChange) => d.lines.map((l) => [l.kind, l.unitAmount, l.taxRate]);

// April 2024: 30 days (2,592,000 s). Day 10 elapsed at April 11 00:00: 20 days (1,728,000 s) left, 2/3.
const april = (plan: { planId: string; price: bigint; coupon?: ReturnType<typeof coupon> | null }) =>
  terms(at("2024-01-01T00:00:00Z"), "monthly", 3, plan);
const day10 = at("2024-04-11T00:00:00Z");

describe("same billing period", () => {
  test("$10 -> $20 at day 10 of 30 with a 20% coupon and 10% tax: credit 2/3 of $8, charge 2/3 of $16, one rounding each", () => {
    const save20 = coupon();
    const d = done(
      change(april({ planId: "basic", price: 10_000_000n, coupon: save20 }), day10, { planId: "pro", price: 20_000_000n }, { taxRate: 100_000n }),
    );
    expect(d.kind).toBe("upgrade");
    expect(d.effective).toBe("now");
    // 8,000,000 x 2/3 = 5,333,333.33 -> 5,333,333; 16,000,000 x 2/3 = 10,666,666.67 -> 10,666,667
    expect([d.credit, d.charge]).toEqual([5_333_333n, 10_666_667n]);
    expect(amounts(d)).toEqual([
      ["proration", -5_333_333n, 100_000n],
      ["proration", 10_666_667n, 100_000n],
    ]);
    expect(d.lines.map((l) => l.description)).toEqual([
      "Unused time on Basic (monthly, coupon SAVE20) from 2024-04-11T00:00:00Z",
      "Remaining time on Pro (monthly, coupon SAVE20) from 2024-04-11T00:00:00Z",
    ]);
    expect(d.lines.every((l) => l.periodStart?.getTime() === day10.getTime() && l.periodEnd?.toISOString() === "2024-05-01T00:00:00.000Z")).toBe(
      true,
    );
    // taxes: -533,333.3 -> -533,333 and 1,066,666.7 -> 1,066,667; net = -5,866,666 + 11,733,334
    expect(d.net).toBe(5_866_668n);
    expect(d.invoice).toEqual({ lines: d.lines, total: 5_866_668n, balanceApplied: 0n });
    expect(d.creditToBalance).toBe(0n);
    // the anchor and the period stay; the coupon carries over (it has no plan list)
    expect(d.subscription).toMatchObject({ planId: "pro", price: 20_000_000n, coupon: save20, couponAppliedAt: 0, periodIndex: 3 });
    expect(d.subscription.anchor.toISOString()).toBe("2024-01-01T00:00:00.000Z");
    expect(d.subscription.periodEnd.toISOString()).toBe("2024-05-01T00:00:00.000Z");
    expect(d.scheduled).toBeNull();
  });

  test("the credit balance is drawn last on the upgrade invoice, untaxed, never past its total", () => {
    const input = change(april({ planId: "basic", price: 10_000_000n }), day10, { planId: "pro", price: 20_000_000n }, { creditBalance: 1_000_000n });
    const d = done(input);
    // 20M x 2/3 - 10M x 2/3 = 13,333,333 - 6,666,667
    expect(d.net).toBe(6_666_666n);
    expect(d.invoice!.lines.at(-1)).toMatchObject({ kind: "credit", unitAmount: -1_000_000n, taxRate: 0n });
    expect(d.invoice!.total).toBe(5_666_666n);
    expect(d.invoice!.balanceApplied).toBe(1_000_000n);
    const covered = done({ ...input, creditBalance: 50_000_000n });
    expect([covered.invoice!.total, covered.invoice!.balanceApplied]).toEqual([0n, 6_666_666n]);
  });

  test("a downgrade waits for the period's end by default: no lines, the change scheduled on the next period of the same anchor", () => {
    const current = april({ planId: "pro", price: 20_000_000n });
    const d = done(change(current, day10, { planId: "basic", price: 10_000_000n }));
    expect([d.kind, d.effective, d.lines, d.net, d.invoice, d.creditToBalance]).toEqual(["downgrade", "period_end", [], 0n, null, 0n]);
    expect(d.subscription).toEqual(current);
    expect(d.scheduled).toMatchObject({ planId: "basic", price: 10_000_000n, periodIndex: 4 });
    expect([d.scheduled!.periodStart.toISOString(), d.scheduled!.periodEnd.toISOString()]).toEqual([
      "2024-05-01T00:00:00.000Z",
      "2024-06-01T00:00:00.000Z",
    ]);
  });

  test("an immediate downgrade issues no invoice: the customer's credit balance gains what the unused time is worth over the new price", () => {
    const d = done(change(april({ planId: "pro", price: 20_000_000n }), day10, { planId: "basic", price: 10_000_000n }, { when: "now" }));
    // 13,333,333.33 -> 13,333,333 credited; 6,666,666.67 -> 6,666,667 charged
    expect(amounts(d)).toEqual([
      ["proration", -13_333_333n, 0n],
      ["proration", 6_666_667n, 0n],
    ]);
    expect([d.kind, d.effective, d.net, d.invoice, d.creditToBalance]).toEqual(["downgrade", "now", -6_666_666n, null, 6_666_666n]);
    expect(d.subscription.planId).toBe("basic");
  });

  test("at the period's start the whole charged amount is credited; in its last second nothing is left to credit or charge", () => {
    const current = april({ planId: "basic", price: 10_000_000n, coupon: coupon({ duration: "once" }) });
    const start = done(change(current, current.periodStart, { planId: "pro", price: 20_000_000n }));
    // period 3 is past the once coupon's period 0: the full $10 was charged, and the new plan pays its full $20
    expect([start.credit, start.charge, start.net]).toEqual([10_000_000n, 20_000_000n, 10_000_000n]);
    const last = done(change(current, new Date(current.periodEnd.getTime() - 1), { planId: "pro", price: 20_000_000n }));
    expect([last.credit, last.charge, last.lines, last.net, last.invoice]).toEqual([0n, 0n, [], 0n, null]);
    expect(last.subscription.planId).toBe("pro");
  });

  test("half a micro-unit rounds away from zero, on the credit and on the charge", () => {
    const mid = at("2024-04-16T00:00:00Z"); // 15 of 30 days left
    const d = done(change(april({ planId: "basic", price: 1n }), mid, { planId: "pro", price: 3n }));
    expect(amounts(d)).toEqual([
      ["proration", -1n, 0n],
      ["proration", 2n, 0n],
    ]);
    expect(d.net).toBe(1n);
  });

  test("a coupon redeemed with the change replaces the subscription's and counts from the current period; one for other plans is refused", () => {
    const current = april({ planId: "basic", price: 10_000_000n, coupon: coupon() });
    const half = coupon({ code: "HALF", percent_off_bp: 5000, duration: "once" });
    const d = done(change(current, day10, { planId: "pro", price: 20_000_000n }, { couponRedeemed: half }));
    expect([d.credit, d.charge]).toEqual([5_333_333n, 6_666_667n]); // 2/3 of $8 and of $10
    expect(d.subscription).toMatchObject({ coupon: half, couponAppliedAt: 3 });
    const elsewhere = coupon({ code: "TEAMONLY", plan_ids: ["team"] });
    expect(planChange(change(current, day10, { planId: "pro", price: 20_000_000n }, { couponRedeemed: elsewhere }))).toMatchObject({
      ok: false,
      code: "coupon_not_applicable",
    });
    const euros = coupon({ code: "EUR5", percent_off_bp: null, amount_off: 5_000_000n, currency: "EURC" });
    expect(planChange(change(current, day10, { planId: "pro", price: 20_000_000n }, { couponRedeemed: euros }))).toMatchObject({
      ok: false,
      code: "coupon_not_applicable",
    });
  });

  test("the subscription's coupon is dropped when it does not cover the new plan; an amount off is capped at the price", () => {
    const basicOnly = coupon({ code: "BASIC5", percent_off_bp: null, amount_off: 5_000_000n, currency: "usdc", plan_ids: ["basic"] });
    const current = april({ planId: "basic", price: 3_000_000n, coupon: basicOnly });
    const d = done(change(current, day10, { planId: "pro", price: 20_000_000n }));
    // $3 - min($5, $3) = 0 was charged: nothing to credit
    expect([d.credit, d.charge, d.subscription.coupon]).toEqual([0n, 13_333_333n, null]);
    expect(d.lines).toHaveLength(1);
  });

  test("the same plan, billing period and no coupon is no change; equal prices switch now with nothing to pay", () => {
    const current = april({ planId: "basic", price: 10_000_000n });
    expect(done(change(current, day10, { planId: "basic", price: 12_000_000n }))).toMatchObject({ changed: false, lines: [], subscription: current });
    const twin = done(change(current, day10, { planId: "basic-v2", price: 10_000_000n }));
    expect([twin.kind, twin.effective, twin.net, twin.invoice, twin.subscription.planId]).toEqual(["same", "now", 0n, null, "basic-v2"]);
  });

  test("a `now` outside the current period is refused, not thrown", () => {
    const current = april({ planId: "basic", price: 10_000_000n });
    for (const now of [current.periodEnd, new Date(current.periodStart.getTime() - 1000)]) {
      expect(planChange(change(current, now, { planId: "pro", price: 20_000_000n }))).toMatchObject({ ok: false, code: "period_not_current" });
    }
  });
});

describe("change of billing period", () => {
  // Anchored Jan 31 10:30: period 1 runs Feb 29 10:30 -> Mar 31 10:30 2024 (31 days); Mar 10 10:30 leaves 21 days.
  const current = terms(at("2024-01-31T10:30:00Z"), "monthly", 1, { planId: "basic", price: 10_000_000n });
  const mar10 = at("2024-03-10T10:30:00Z");

  test("monthly $10 -> yearly $100 now: the unused 21/31 credited, a full year from now charged, the anchor reset to now", () => {
    const d = done(change(current, mar10, { planId: "basic", price: 100_000_000n, billingPeriod: "yearly" }, { when: "now" }));
    // $120 a year against $100: a downgrade by price, made now on request. 10M x 21/31 = 6,774,193.55 -> 6,774,194
    expect([d.kind, d.intervalChange, d.credit, d.charge]).toEqual(["downgrade", true, 6_774_194n, 100_000_000n]);
    expect(amounts(d)).toEqual([
      ["proration", -6_774_194n, 0n],
      ["item", 100_000_000n, 0n],
    ]);
    expect(d.lines[1]!.periodEnd!.toISOString()).toBe("2025-03-10T10:30:00.000Z");
    expect(d.net).toBe(93_225_806n);
    expect(d.subscription).toMatchObject({ billingPeriod: "yearly", anchor: mar10, periodIndex: 0, periodStart: mar10 });
    expect(d.subscription.periodEnd.toISOString()).toBe("2025-03-10T10:30:00.000Z");
  });

  test("by default that downgrade waits: a yearly period 0 anchored at the old period's end", () => {
    const d = done(change(current, mar10, { planId: "basic", price: 100_000_000n, billingPeriod: "yearly" }));
    expect([d.effective, d.lines]).toEqual(["period_end", []]);
    expect(d.scheduled).toMatchObject({ billingPeriod: "yearly", periodIndex: 0, anchor: current.periodEnd, periodStart: current.periodEnd });
    expect(d.scheduled!.periodEnd.toISOString()).toBe("2025-03-31T10:30:00.000Z");
  });

  test("a carried coupon keeps the periods it used: repeating 3 still discounts the new year, once does not", () => {
    const three = coupon({ code: "THREE", duration: "repeating", duration_periods: 3 });
    const withThree = { ...current, coupon: three };
    const d = done(change(withThree, mar10, { planId: "basic", price: 150_000_000n, billingPeriod: "yearly" }));
    // periods 0 and 1 used: the year is the coupon's period 2. Credit 21/31 of $8; a year at $150 - 20%.
    expect([d.kind, d.credit, d.charge, d.subscription.couponAppliedAt]).toEqual(["upgrade", 5_419_355n, 120_000_000n, -2]);
    expect(amounts(d)).toEqual([
      ["proration", -5_419_355n, 0n],
      ["item", 150_000_000n, 0n],
      ["discount", -30_000_000n, 0n],
    ]);
    const once = done(
      change({ ...current, coupon: coupon({ duration: "once" }) }, mar10, { planId: "basic", price: 150_000_000n, billingPeriod: "yearly" }),
    );
    expect([once.credit, once.charge]).toEqual([6_774_194n, 150_000_000n]);
  });
});
