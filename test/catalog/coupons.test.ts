/** Coupons: redemption counted atomically (redeemCoupon), each refusal's code, and what may change once redeemed. */
import { describe, expect, test } from "bun:test";
import { createTestApp } from "../helpers/app";
import { createTeamFixture } from "../helpers/fixtures";
import { createCompanyOnPlan } from "../helpers/catalog";
import { randomToken } from "../../src/lib/ids";
import { couponAppliesToPeriod, couponDiscount, redeemCoupon } from "../../src/modules/catalog/coupons/redeem";
import type { CouponRow } from "../../src/modules/catalog/coupons/rows";

const t = await createTestApp();
const team = await createTeamFixture(t, "Coupons");
const sql = t.db.sql;
const tenant = { teamId: team.teamId, environment: "development" as const };
const dash = (method: string, path: string, body?: unknown) => t.call(method, `/dashboard${path}`, { token: team.dashboardAdmin, body });
const planId = (await dash("POST", "/plans", { name: "Couponed" })).body.data.id as string;
const otherPlan = (await dash("POST", "/plans", { name: "Other" })).body.data.id as string;
const companyId = await createCompanyOnPlan(t, team.keys.legacy, team.teamId, "coupon-co", planId);
const code = () => `C${randomToken(10)}`;
const newCoupon = async (body: Record<string, unknown>) => {
  const res = await dash("POST", "/coupons", { code: code(), percentOff: "10", duration: "once", ...body });
  expect(res.status).toBe(201);
  return res.body.data;
};
const redeem = (c: string, plan = planId, now = new Date(t.clock.now())) =>
  sql.begin((tx) => redeemCoupon(tx, tenant, { code: c, companyId, planId: plan }, now));
const failure = (c: string, plan?: string, now?: Date) =>
  redeem(c, plan, now).then(
    () => null,
    (e) => ({ status: e.status, code: e.code }),
  );

describe("redeemCoupon", () => {
  test("20 concurrent redemptions of a max-5 coupon: exactly 5 succeed, the rest are coupon_exhausted", async () => {
    const c = await newCoupon({ maxRedemptions: 5 });
    const results = await Promise.allSettled(Array.from({ length: 20 }, () => redeem(c.code)));
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(5);
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
    expect(refused.map((r) => r.reason.code)).toEqual(Array(15).fill("coupon_exhausted"));
    expect((await dash("GET", `/coupons/${c.id}`)).body.data.redemptions).toBe(5);
    expect((await sql`select count(*)::int as n from coupon_redemptions where coupon_id = ${c.id}`)[0]!.n).toBe(5);
  });

  test("the code matches in any case; each refusal has its own code", async () => {
    const c = await newCoupon({ planIds: [planId], expiresAt: new Date(t.clock.now() + 3_600_000).toISOString() });
    expect((await redeem(c.code.toLowerCase())).coupon.id).toBe(c.id);
    expect(await failure("NO-SUCH-CODE")).toEqual({ status: 404, code: "coupon_not_found" });
    expect(await failure(c.code, otherPlan)).toEqual({ status: 422, code: "coupon_not_applicable" });
    expect(await failure(c.code, planId, new Date(t.clock.now() + 7_200_000))).toEqual({ status: 422, code: "coupon_expired" });
    expect((await dash("DELETE", `/coupons/${c.id}`)).body.data.archived).toBe(true);
    expect(await failure(c.code)).toEqual({ status: 422, code: "coupon_archived" });
  });

  test("couponDiscount and couponAppliesToPeriod", () => {
    const base = { percent_off_bp: null, amount_off: null, currency: null, duration: "once", duration_periods: null } as unknown as CouponRow;
    expect(couponDiscount({ ...base, percent_off_bp: 1250 }, 29_000_000n, "USDC")).toBe(3_625_000n);
    expect(couponDiscount({ ...base, percent_off_bp: 3333 }, 1n, "USDC")).toBe(0n); // 0.3333 rounds to 0
    expect(couponDiscount({ ...base, amount_off: 50_000_000n, currency: "USDC" }, 29_000_000n, "usdc")).toBe(29_000_000n);
    expect(() => couponDiscount({ ...base, amount_off: 1n, currency: "USDC" }, 5n, "XLM")).toThrow();
    expect(couponAppliesToPeriod({ ...base, duration: "once" }, 1)).toBe(false);
    expect(couponAppliesToPeriod({ ...base, duration: "repeating", duration_periods: 3 }, 2)).toBe(true);
    expect(couponAppliesToPeriod({ ...base, duration: "repeating", duration_periods: 3 }, 3)).toBe(false);
    expect(couponAppliesToPeriod({ ...base, duration: "forever" }, 99)).toBe(true);
  });
});

describe("PATCH /dashboard/coupons/{id}", () => {
  test("terms change before the first redemption, not after; name, expiry and a higher max always", async () => {
    const c = await newCoupon({ maxRedemptions: 2 });
    expect((await dash("PATCH", `/coupons/${c.id}`, { percentOff: "15" })).body.data.percentOff).toBe("15.00");
    await redeem(c.code);
    const locked = await dash("PATCH", `/coupons/${c.id}`, { percentOff: "50" });
    expect(locked.status).toBe(409);
    expect((await dash("GET", `/coupons/${c.id}`)).body.data.percentOff).toBe("15.00");
    // The form sent back as the coupon reads ("15.00"), or written another way ("15"), changes nothing: 200.
    const resent = await dash("PATCH", `/coupons/${c.id}`, { name: "Same terms", percentOff: "15", duration: c.duration });
    expect([resent.status, resent.body.data?.name]).toEqual([200, "Same terms"]);
    const lower = await dash("PATCH", `/coupons/${c.id}`, { maxRedemptions: 1 });
    expect([lower.status, lower.body]).toEqual([400, expect.anything()]);
    expect(Object.keys(lower.body.details)).toEqual(["body.maxRedemptions"]);
    const ok = await dash("PATCH", `/coupons/${c.id}`, {
      name: "Launch",
      maxRedemptions: 10,
      expiresAt: new Date(t.clock.now() + 86_400_000).toISOString(),
    });
    expect(ok.status).toBe(200);
    expect(ok.body.data).toMatchObject({ name: "Launch", maxRedemptions: 10, redemptions: 1 });
  });

  test("a partial update keeps the terms it does not name", async () => {
    const c = await newCoupon({ duration: "forever" });
    expect((await dash("PATCH", `/coupons/${c.id}`, { name: "Renamed" })).body.data).toMatchObject({
      name: "Renamed",
      duration: "forever",
      percentOff: "10.00",
    });
  });

  test("sending the other kind of discount replaces the stored one (no explicit null)", async () => {
    const c = await newCoupon({});
    const res = await dash("PATCH", `/coupons/${c.id}`, { amountOff: "2.5", currency: "USDC" });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ percentOff: null, amountOff: "2.500000", currency: "USDC" });
    const back = await dash("PATCH", `/coupons/${c.id}`, { percentOff: "20" });
    expect(back.body.data).toMatchObject({ percentOff: "20.00", amountOff: null, currency: null });
  });

  test("codes are unique in any case: 409", async () => {
    const c = await newCoupon({});
    const res = await dash("POST", "/coupons", { code: c.code.toLowerCase(), percentOff: "5", duration: "once" });
    expect(res.status).toBe(409);
  });
});
