/** The pure entitlement rules: billing periods, which grant applies, trait comparison, credit balances, decisions. */
import { describe, expect, test } from "bun:test";
import { creditBalance, decide, periodBounds, resolveGrant, traitMatches, type Grant } from "../../src/modules/entitlements/compute";

const at = (iso: string) => Date.parse(iso);
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
const bounds = (anchor: string, period: "day" | "week" | "month" | "lifetime", now: string) => {
  const b = periodBounds(at(anchor), period, at(now));
  return [iso(b.start), iso(b.end)];
};

describe("periodBounds: quotas reset on the billing anchor", () => {
  test("month: the anchor's day and time each month", () => {
    expect(bounds("2026-01-15T09:30:00Z", "month", "2026-03-20T00:00:00Z")).toEqual(["2026-03-15T09:30:00.000Z", "2026-04-15T09:30:00.000Z"]);
    expect(bounds("2026-01-15T09:30:00Z", "month", "2026-03-15T09:29:59.999Z")).toEqual(["2026-02-15T09:30:00.000Z", "2026-03-15T09:30:00.000Z"]);
    expect(bounds("2026-01-15T09:30:00Z", "month", "2026-03-15T09:30:00Z")).toEqual(["2026-03-15T09:30:00.000Z", "2026-04-15T09:30:00.000Z"]);
  });

  test("month: an anchor on the 31st falls on the last day of shorter months, and comes back", () => {
    expect(bounds("2026-01-31T00:00:00Z", "month", "2026-02-28T12:00:00Z")).toEqual(["2026-02-28T00:00:00.000Z", "2026-03-31T00:00:00.000Z"]);
    expect(bounds("2026-01-31T00:00:00Z", "month", "2026-04-30T00:00:00Z")).toEqual(["2026-04-30T00:00:00.000Z", "2026-05-31T00:00:00.000Z"]);
    expect(bounds("2024-01-31T00:00:00Z", "month", "2024-02-29T01:00:00Z")).toEqual(["2024-02-29T00:00:00.000Z", "2024-03-31T00:00:00.000Z"]);
  });

  test("month: across a year boundary", () => {
    expect(bounds("2025-11-05T00:00:00Z", "month", "2026-01-04T23:59:59Z")).toEqual(["2025-12-05T00:00:00.000Z", "2026-01-05T00:00:00.000Z"]);
  });

  test("day and week: whole lengths from the anchor", () => {
    expect(bounds("2026-03-01T06:00:00Z", "day", "2026-03-10T05:59:59Z")).toEqual(["2026-03-09T06:00:00.000Z", "2026-03-10T06:00:00.000Z"]);
    expect(bounds("2026-03-01T06:00:00Z", "week", "2026-03-15T06:00:00Z")).toEqual(["2026-03-15T06:00:00.000Z", "2026-03-22T06:00:00.000Z"]);
  });

  test("lifetime: one period from the epoch, never ending", () => {
    expect(bounds("2026-03-01T06:00:00Z", "lifetime", "2030-01-01T00:00:00Z")).toEqual(["1970-01-01T00:00:00.000Z", null]);
  });
});

const grant = (g: Partial<Grant>): Grant => ({
  featureId: "cflag_x",
  kind: "boolean",
  enabled: true,
  limit: null,
  period: null,
  creditsPerUse: null,
  traitKey: null,
  traitOperator: null,
  traitValue: null,
  source: "plan",
  planId: "plan_a",
  ...g,
});

describe("resolveGrant", () => {
  test("an override wins over every plan grant", () => {
    const override = grant({ kind: "boolean", enabled: false, source: "override", planId: null });
    expect(resolveGrant(override, [grant({ kind: "boolean" })])).toBe(override);
  });

  test("otherwise the most generous: unlimited > quota (higher limit) > credits (cheaper) > trait > off", () => {
    const q5 = grant({ kind: "quota", limit: 5n, period: "month" });
    const q9 = grant({ kind: "quota", limit: 9n, period: "day", source: "add_on", planId: "plan_b" });
    const c1 = grant({ kind: "credit", creditsPerUse: 1n });
    const c3 = grant({ kind: "credit", creditsPerUse: 3n });
    const off = grant({ kind: "boolean", enabled: false });
    const on = grant({ kind: "boolean" });
    expect(resolveGrant(undefined, [q5, q9])).toBe(q9);
    expect(resolveGrant(undefined, [c3, c1])).toBe(c1);
    expect(resolveGrant(undefined, [c1, q5])).toBe(q5);
    expect(resolveGrant(undefined, [q9, on])).toBe(on);
    expect(resolveGrant(undefined, [off, c3])).toBe(c3);
    expect(resolveGrant(undefined, [])).toBeNull();
  });
});

describe("traitMatches", () => {
  test("numbers compare as numbers, strings only for equality", () => {
    expect(traitMatches(12, "gte", "10")).toBe(true);
    expect(traitMatches("9", "gte", "10")).toBe(false);
    expect(traitMatches("gold", "eq", "gold")).toBe(true);
    expect(traitMatches("gold", "neq", "silver")).toBe(true);
    expect(traitMatches("gold", "gt", "silver")).toBe(false);
    expect(traitMatches(undefined, "neq", "x")).toBe(false);
    expect(traitMatches(true, "eq", "true")).toBe(true);
  });
});

describe("credits", () => {
  test("expired lots do not count", () => {
    expect(
      creditBalance(
        [
          { remaining: 5n, expiresAt: 1000 },
          { remaining: 7n, expiresAt: null },
        ],
        999,
      ),
    ).toBe(12n);
    expect(
      creditBalance(
        [
          { remaining: 5n, expiresAt: 1000 },
          { remaining: 7n, expiresAt: null },
        ],
        1000,
      ),
    ).toBe(7n);
  });
});

describe("decide", () => {
  const facts = {
    anchorMs: at("2026-01-01T00:00:00Z"),
    traits: { seats: 3 },
    counters: new Map([["cflag_x:" + at("2026-03-01T00:00:00Z"), 4n]]),
    lots: [{ remaining: 3n, expiresAt: null }],
  };
  const now = at("2026-03-05T00:00:00Z");

  test("quota with quantity: all or nothing", () => {
    const q = grant({ kind: "quota", limit: 5n, period: "month" });
    expect(decide(q, facts, now, 1n)).toMatchObject({ access: true, used: 4n, remaining: 1n });
    expect(decide(q, facts, now, 2n)).toMatchObject({ access: false, reason: "limit_reached" });
  });

  test("credits need creditsPerUse x quantity", () => {
    const c = grant({ kind: "credit", creditsPerUse: 2n });
    expect(decide(c, facts, now, 1n)).toMatchObject({ access: true, creditBalance: 3n });
    expect(decide(c, facts, now, 2n)).toMatchObject({ access: false, reason: "insufficient_credits" });
  });

  test("no grant, switched off, trait", () => {
    expect(decide(null, facts, now).reason).toBe("not_in_plan");
    expect(decide(grant({ enabled: false }), facts, now).reason).toBe("disabled");
    expect(decide(grant({ kind: "trait", traitKey: "seats", traitOperator: "lt", traitValue: "5" }), facts, now)).toMatchObject({
      access: true,
      reason: "trait_matched",
    });
  });
});
