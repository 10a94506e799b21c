/**
 * The dashboard catalog routes end to end: a plan with a monthly price, a coupon and entitlements made only
 * over /dashboard/... is what GET /check and metering enforce at once for a company put on the plan;
 * bad input is a 400 naming each field with nothing written; another team's records are 404.
 */
import { describe, expect, test } from "bun:test";
import { createTestApp } from "../helpers/app";
import { createTeamFixture } from "../helpers/fixtures";
import { createCompanyOnPlan } from "../helpers/catalog";
import { randomToken } from "../../src/lib/ids";

const t = await createTestApp();
const team = await createTeamFixture(t, "Dashboard catalog");
const other = await createTeamFixture(t, "Other team");
const sql = t.db.sql;
const admin = { token: team.dashboardAdmin };
const dash = (method: string, path: string, body?: unknown, as = admin) => t.call(method, `/dashboard${path}`, { ...as, body });
const key = (prefix: string) => `${prefix}-${randomToken(8).toLowerCase()}`;
const counts = async () =>
  (
    await sql`select (select count(*) from plans where team_id = ${team.teamId})::int as plans,
                     (select count(*) from plan_prices where team_id = ${team.teamId})::int as prices,
                     (select count(*) from coupons where team_id = ${team.teamId})::int as coupons,
                     (select count(*) from audit_log where team_id = ${team.teamId})::int as audits`
  )[0];

describe("made over the dashboard routes, enforced at once", () => {
  test("plan + monthly price + coupon + entitlements -> /check, /usage/consume and POST /events follow each change", async () => {
    const apiKey = key("api");
    const sso = key("sso");
    const created = await dash("POST", "/features", { name: "API calls", featureKey: apiKey, featureType: "event" });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ featureKey: apiKey, archived: false, linkedPlans: [] });
    expect((await dash("POST", "/features", { name: "SSO", featureKey: sso, featureType: "boolean" })).status).toBe(201);

    const plan = await dash("POST", "/plans", {
      name: "Scale",
      tier: "scale",
      trialDays: 14,
      prices: [{ billingPeriod: "monthly", amount: "29.00", currency: "usdc" }],
      onchainPlanIds: { "base-sepolia": "42" },
    });
    expect(plan.status).toBe(201);
    const planId = plan.body.data.id as string;
    expect(plan.body.data).toMatchObject({
      kind: "plan",
      name: "Scale",
      trialDays: 14,
      prices: [{ billingPeriod: "monthly", amount: "29.000000", currency: "USDC" }],
      onchainPlanIds: { "base-sepolia": "42" },
      entitlements: [],
      archived: false,
    });
    expect((await sql`select amount from plan_prices where plan_id = ${planId}`)[0]!.amount).toBe(29_000_000n);

    // Entitlements by featureKey: a quota of 3 per month, and SSO on.
    const quota = await dash("PUT", `/plans/${planId}/entitlements/${apiKey}`, { kind: "quota", limit: "3", period: "month" });
    expect(quota.status).toBe(200);
    expect(quota.body.data).toMatchObject({ planId, kind: "quota", limit: "3", period: "month" });
    expect((await dash("PUT", `/plans/${planId}/entitlements/${sso}`, { kind: "boolean" })).status).toBe(200);

    const coupon = await dash("POST", "/coupons", {
      code: "SCALE20",
      percentOff: "20",
      duration: "repeating",
      durationPeriods: 3,
      maxRedemptions: 5,
      planIds: [planId],
    });
    expect(coupon.status).toBe(201);
    expect(coupon.body.data).toMatchObject({
      code: "SCALE20",
      percentOff: "20.00",
      amountOff: null,
      duration: "repeating",
      durationPeriods: 3,
      maxRedemptions: 5,
      redemptions: 0,
      planIds: [planId],
    });

    // A company on the plan (as PATCH /companies/{id} or the operator's assignPlan put it).
    await createCompanyOnPlan(t, team.keys.legacy, team.teamId, "dash-co", planId);
    const check = (feature: string) => t.call("GET", `/check?company=dash-co&feature=${feature}`, { token: team.keys.secret });
    expect((await check(apiKey)).body.data).toMatchObject({ access: true, kind: "quota", limit: 3, used: 0 });
    expect((await check(sso)).body.data).toMatchObject({ access: true, kind: "boolean" });
    expect(
      (await t.call("POST", "/usage/consume", { token: team.keys.secret, body: { company: "dash-co", feature: apiKey, quantity: 2 } })).status,
    ).toBe(200);
    const track = () =>
      t.call("POST", "/events", { token: team.keys.legacy, body: { event_type: "track", name: apiKey, company: { id: "dash-co" } } });
    expect((await track()).status).toBe(200);
    const over = await track();
    expect(over.status).toBe(429);
    expect(over.body.code).toBe("limit_reached");

    // Raise the quota: enforced on the next call.
    expect((await dash("PUT", `/plans/${planId}/entitlements/${apiKey}`, { kind: "quota", limit: 10, period: "month" })).status).toBe(200);
    expect((await track()).status).toBe(200);
    expect((await check(apiKey)).body.data).toMatchObject({ access: true, limit: 10, used: 4 });

    // Remove SSO from the plan: gone at once.
    const removed = await dash("DELETE", `/plans/${planId}/entitlements/${sso}`);
    expect(removed.status).toBe(200);
    expect((await check(sso)).body.data).toMatchObject({ access: false });
    expect((await dash("DELETE", `/plans/${planId}/entitlements/${sso}`)).status).toBe(404);

    // Archive the metered feature: it grants nothing; its history stays; restoring brings it back.
    expect((await dash("PATCH", `/features/${apiKey}`, { archived: true })).body.data).toMatchObject({ archived: true });
    expect((await check(apiKey)).status).toBe(404);
    expect((await dash("GET", "/features")).body.data.map((f: { featureKey: string }) => f.featureKey)).not.toContain(apiKey);
    expect((await dash("GET", "/features?includeArchived=true")).body.data.map((f: { featureKey: string }) => f.featureKey)).toContain(apiKey);
    expect((await dash("GET", `/plans/${planId}`)).body.data.entitlements).toEqual([
      expect.objectContaining({ featureKey: apiKey, featureArchived: true }),
    ]);
    expect((await dash("PATCH", `/features/${apiKey}`, { archived: false })).body.data.archived).toBe(false);
    expect((await check(apiKey)).body.data).toMatchObject({ access: true, used: 4 });

    // The plan is in use: DELETE archives it, and the company keeps its entitlements.
    const gone = await dash("DELETE", `/plans/${planId}`);
    expect(gone.body).toEqual({ data: { id: planId, outcome: "archived" } });
    expect((await check(apiKey)).body.data).toMatchObject({ access: true });
    expect((await dash("GET", "/plans")).body.data.map((p: { id: string }) => p.id)).not.toContain(planId);

    // Each change was audited with the dashboard session as actor.
    const actions =
      await sql`select distinct action, actor_kind from audit_log where team_id = ${team.teamId} and actor_kind = 'dashboard' order by action`;
    expect(actions.map((a) => a.action)).toEqual(
      expect.arrayContaining([
        "coupon.create",
        "entitlement.remove",
        "entitlement.set",
        "feature.archive",
        "feature.create",
        "feature.restore",
        "plan.create",
        "plan.remove",
      ]),
    );
  });

  test("prices: set, replace, remove; an unused plan is deleted", async () => {
    const plan = (await dash("POST", "/plans", { name: "Solo", kind: "add_on" })).body.data;
    expect(plan).toMatchObject({ kind: "add_on", prices: [] });
    // A partial update keeps what it does not name (the kind included).
    expect((await dash("PATCH", `/plans/${plan.id}`, { name: "Solo+" })).body.data).toMatchObject({ name: "Solo+", kind: "add_on" });
    expect((await dash("PUT", `/plans/${plan.id}/prices/yearly`, { amount: "100", currency: "USDC" })).body.data.prices).toEqual([
      { billingPeriod: "yearly", amount: "100.000000", currency: "USDC" },
    ]);
    expect((await dash("PUT", `/plans/${plan.id}/prices/yearly`, { amount: "90.5", currency: "USDC" })).body.data.prices).toEqual([
      { billingPeriod: "yearly", amount: "90.500000", currency: "USDC" },
    ]);
    expect((await dash("DELETE", `/plans/${plan.id}/prices/yearly`)).body.data.prices).toEqual([]);
    expect((await dash("DELETE", `/plans/${plan.id}/prices/yearly`)).status).toBe(404);
    expect((await dash("DELETE", `/plans/${plan.id}`)).body.data).toEqual({ id: plan.id, outcome: "deleted" });
    expect((await dash("GET", `/plans/${plan.id}`)).status).toBe(404);
  });

  test("an on-chain plan id names one plan per network: 409 for a second", async () => {
    const id = randomToken(10);
    expect((await dash("POST", "/plans", { name: "A", onchainPlanIds: { sepolia: id } })).status).toBe(201);
    const before = await counts();
    const res = await dash("POST", "/plans", { name: "B", onchainPlanIds: { sepolia: id } });
    expect(res.status).toBe(409);
    expect(await counts()).toEqual(before);
  });
});

describe("400 {error, details}: bad input, nothing written", () => {
  const cases: [string, string, string, unknown, string][] = [
    ["exponent", "POST", "/plans", { name: "X", prices: [{ billingPeriod: "monthly", amount: "1e3", currency: "USDC" }] }, "body.prices[0].amount"],
    [
      "7 fractional digits",
      "POST",
      "/plans",
      { name: "X", prices: [{ billingPeriod: "monthly", amount: "0.1234567", currency: "USDC" }] },
      "body.prices[0].amount",
    ],
    ["negative", "POST", "/plans", { name: "X", prices: [{ billingPeriod: "monthly", amount: "-5", currency: "USDC" }] }, "body.prices[0].amount"],
    ["zero", "POST", "/plans", { name: "X", prices: [{ billingPeriod: "monthly", amount: "0", currency: "USDC" }] }, "body.prices[0].amount"],
    [
      "unknown currency",
      "POST",
      "/plans",
      { name: "X", prices: [{ billingPeriod: "monthly", amount: "5", currency: "DOGE" }] },
      "body.prices[0].currency",
    ],
    [
      "duplicate period",
      "POST",
      "/plans",
      {
        name: "X",
        prices: [
          { billingPeriod: "monthly", amount: "5", currency: "USDC" },
          { billingPeriod: "monthly", amount: "6", currency: "USDC" },
        ],
      },
      "body.prices[1].billingPeriod",
    ],
    ["trial days over 365", "POST", "/plans", { name: "X", trialDays: 366 }, "body.trialDays"],
    ["unknown network", "POST", "/plans", { name: "X", onchainPlanIds: { "no-such-chain": "1" } }, "body.onchainPlanIds.no-such-chain"],
    ["main network in development", "POST", "/plans", { name: "X", onchainPlanIds: { base: "1" } }, "body.onchainPlanIds.base"],
    ["percent over 100", "POST", "/coupons", { code: "BIG", percentOff: "100.01", duration: "once" }, "body.percentOff"],
    [
      "percent and amount",
      "POST",
      "/coupons",
      { code: "BOTH", percentOff: "10", amountOff: "5", currency: "USDC", duration: "once" },
      "body.amountOff",
    ],
    ["amount without currency", "POST", "/coupons", { code: "NOCUR", amountOff: "5", duration: "once" }, "body.currency"],
    ["repeating without periods", "POST", "/coupons", { code: "REP", percentOff: "5", duration: "repeating" }, "body.durationPeriods"],
    [
      "unknown plan in restrictions",
      "POST",
      "/coupons",
      { code: "NOPLAN", percentOff: "5", duration: "once", planIds: ["plan_nope"] },
      "body.planIds",
    ],
    [
      "expiry in the past",
      "POST",
      "/coupons",
      { code: "OLD", percentOff: "5", duration: "once", expiresAt: "2000-01-01T00:00:00Z" },
      "body.expiresAt",
    ],
    [
      "number amount",
      "POST",
      "/plans",
      { name: "X", prices: [{ billingPeriod: "monthly", amount: 1000, currency: "USDC" }] },
      "body.prices[0].amount",
    ],
  ];
  for (const [name, method, path, body, field] of cases) {
    test(`${name} -> 400 naming ${field}`, async () => {
      const before = await counts();
      const res = await dash(method, path, body);
      expect(res.status).toBe(400);
      expect(Object.keys(res.body).sort()).toEqual(["details", "error"]);
      expect(Object.keys(res.body.details).some((k) => k === field || k.startsWith(field))).toBe(true);
      expect(await counts()).toEqual(before);
    });
  }

  test("every problem of one request is named at once", async () => {
    const res = await dash("POST", "/plans", {
      name: "X",
      prices: [
        { billingPeriod: "monthly", amount: "1e3", currency: "USDC" },
        { billingPeriod: "yearly", amount: "5", currency: "NOPE" },
      ],
    });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.details).sort()).toEqual(["body.prices[0].amount", "body.prices[1].currency"]);
  });

  test("PUT price with a bad amount leaves the old price", async () => {
    const plan = (await dash("POST", "/plans", { name: "Keep", prices: [{ billingPeriod: "monthly", amount: "9", currency: "USDC" }] })).body.data;
    const res = await dash("PUT", `/plans/${plan.id}/prices/monthly`, { amount: "9.0000001", currency: "USDC" });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.details)).toEqual(["body.amount"]);
    expect((await dash("GET", `/plans/${plan.id}`)).body.data.prices[0].amount).toBe("9.000000");
  });
});

describe("tenant isolation and roles", () => {
  test("another team's plan, coupon and feature are 404 to read and to change", async () => {
    const plan = (await dash("POST", "/plans", { name: "Mine" })).body.data.id;
    const coupon = (await dash("POST", "/coupons", { code: `MINE${randomToken(6)}`, percentOff: "5", duration: "forever" })).body.data.id;
    const feature = key("mine");
    expect((await dash("POST", "/features", { name: "Mine", featureKey: feature, featureType: "boolean" })).status).toBe(201);
    const them = { token: other.dashboardAdmin };
    expect((await dash("GET", `/plans/${plan}`, undefined, them)).status).toBe(404);
    expect((await dash("PATCH", `/plans/${plan}`, { name: "Theirs" }, them)).status).toBe(404);
    expect((await dash("DELETE", `/plans/${plan}`, undefined, them)).status).toBe(404);
    expect((await dash("PUT", `/plans/${plan}/prices/monthly`, { amount: "1", currency: "USDC" }, them)).status).toBe(404);
    expect((await dash("GET", `/coupons/${coupon}`, undefined, them)).status).toBe(404);
    expect((await dash("PATCH", `/coupons/${coupon}`, { name: "x" }, them)).status).toBe(404);
    expect((await dash("GET", `/features/${feature}`, undefined, them)).status).toBe(404);
    expect((await dash("DELETE", `/features/${feature}`, undefined, them)).status).toBe(404);
    expect((await dash("GET", `/plans/${plan}`)).body.data.name).toBe("Mine");
  });

  test("catalog:read may read but not write", async () => {
    const reader = { token: team.dashboardCatalog };
    expect((await dash("GET", "/plans", undefined, reader)).status).toBe(200);
    const res = await dash("POST", "/plans", { name: "Nope" }, reader);
    expect(res.status).toBe(403);
    expect(res.body.code).toBe("missing_permission");
  });
});
