/** GET /check, GET /flags/check, GET /entitlements, POST /usage/consume: payloads, rules, scoping, isolation. */
import { describe, expect, test } from "bun:test";
import { createPeerInstance, createTestApp } from "../helpers/app";
import { createTeamFixture } from "../helpers/fixtures";
import { createCatalogFixture, createCompanyOnPlan } from "../helpers/catalog";
import { setOverride } from "../../src/modules/customers/plan";
import { grantCredits } from "../../src/modules/entitlements/credits";

const t = await createTestApp();
// Mid-month, so the monthly period is easy to read: anchor 2026-03-10T12:00Z.
t.clock.set(Date.UTC(2026, 2, 10, 12));
const team = await createTeamFixture(t);
const catalog = await createCatalogFixture(t, team.teamId);
const tenant = { teamId: team.teamId, environment: "development" as const };
const sk = team.keys.secret;

const check = (company: string, feature: string, token = sk) => t.call("GET", `/check?company=${company}&feature=${feature}`, { token });
const consume = (body: Record<string, unknown>, token = sk) => t.call("POST", "/usage/consume", { token, body });

describe("GET /check", () => {
  test("quota: limit, used, remaining and the period on the billing anchor", async () => {
    const companyId = await createCompanyOnPlan(t, team.keys.legacy, team.teamId, "check-quota", catalog.planId);
    await consume({ company: "check-quota", feature: "api-calls", quantity: 2 });
    const res = await check("check-quota", "api-calls");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      data: {
        companyId,
        featureId: catalog.features.apiCalls,
        featureKey: "api-calls",
        featureType: "event",
        access: true,
        reason: "within_limit",
        kind: "quota",
        source: "plan",
        planId: catalog.planId,
        limit: 5,
        used: 2,
        remaining: 3,
        period: "month",
        periodStart: "2026-03-10T12:00:00.000Z",
        periodEnd: "2026-04-10T12:00:00.000Z",
        creditsPerUse: null,
        creditBalance: null,
      },
    });
  });

  test("the quota resets when the period ends", async () => {
    await createCompanyOnPlan(t, team.keys.legacy, team.teamId, "check-reset", catalog.planId);
    expect((await consume({ company: "check-reset", feature: "api-calls", quantity: 5 })).status).toBe(200);
    expect((await check("check-reset", "api-calls")).body.data).toMatchObject({ access: false, reason: "limit_reached", remaining: 0 });
    const saved = t.clock.now();
    t.clock.set(Date.UTC(2026, 3, 10, 12)); // the anchor's day next month
    try {
      expect((await check("check-reset", "api-calls")).body.data).toMatchObject({
        access: true,
        used: 0,
        remaining: 5,
        periodStart: "2026-04-10T12:00:00.000Z",
      });
      expect((await consume({ company: "check-reset", feature: "api-calls" })).status).toBe(200);
    } finally {
      t.clock.set(saved);
    }
  });

  test("credits: balance and cost; access false when the balance is short", async () => {
    await createCompanyOnPlan(t, team.keys.legacy, team.teamId, "check-credits", catalog.planId, 3n);
    expect((await check("check-credits", "ai-tokens")).body.data).toMatchObject({
      access: true,
      reason: "credits_available",
      kind: "credit",
      creditsPerUse: "2",
      creditBalance: "3",
    });
    await consume({ company: "check-credits", feature: "ai-tokens" });
    expect((await check("check-credits", "ai-tokens")).body.data).toMatchObject({
      access: false,
      reason: "insufficient_credits",
      creditBalance: "1",
    });
  });

  test("boolean, switched off, trait, not in plan", async () => {
    await createCompanyOnPlan(t, team.keys.legacy, team.teamId, "check-kinds", catalog.planId);
    expect((await check("check-kinds", "sso")).body.data).toMatchObject({ access: true, reason: "enabled", kind: "boolean" });
    expect((await check("check-kinds", "beta")).body.data).toMatchObject({ access: false, reason: "disabled" });
    expect((await check("check-kinds", "bulk")).body.data).toMatchObject({ access: false, reason: "trait_not_matched", kind: "trait" });
    expect((await check("check-kinds", "exports")).body.data).toMatchObject({ access: false, reason: "not_in_plan", kind: null });
  });

  test("an unknown company is access false, not an error; an unknown feature is 404", async () => {
    expect((await check("nobody", "sso")).body.data).toMatchObject({ companyId: "nobody", access: false, reason: "company_not_found" });
    const res = await check("check-kinds", "no-such-feature");
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: "No feature no-such-feature" });
  });

  test("quantity asks whether that many more units fit; a bad quantity is a 400 naming it", async () => {
    await createCompanyOnPlan(t, team.keys.legacy, team.teamId, "check-qty", catalog.planId);
    await consume({ company: "check-qty", feature: "api-calls", quantity: 2 }); // 3 of 5 left
    const fits = await t.call("GET", "/check?company=check-qty&feature=api-calls&quantity=3", { token: sk });
    expect(fits.body.data).toMatchObject({ access: true, used: 2, remaining: 3 });
    const over = await t.call("GET", "/check?company=check-qty&feature=api-calls&quantity=4", { token: sk });
    expect(over.body.data).toMatchObject({ access: false, reason: "limit_reached", used: 2, remaining: 3 });
    for (const quantity of ["0", "-1", "1.5", "1000001", "two", "1e3", ""]) {
      const res = await t.call("GET", `/check?company=check-qty&feature=api-calls&quantity=${quantity}`, { token: sk });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: "Validation failed", details: { "query.quantity": "Expected an integer from 1 to 1000000" } });
    }
    for (const quantity of ["1000000", "007"])
      expect((await t.call("GET", `/check?company=check-qty&feature=api-calls&quantity=${quantity}`, { token: sk })).status).toBe(200);
  });

  test("missing feature or company is a 400 naming the field", async () => {
    const noFeature = await t.call("GET", "/check?company=x", { token: sk });
    expect(noFeature.status).toBe(400);
    expect(Object.keys(noFeature.body.details)).toEqual(["query.feature"]);
    const noCompany = await t.call("GET", "/check?feature=sso", { token: sk });
    expect(noCompany.status).toBe(400);
    expect(noCompany.body.details).toEqual({ "query.company": expect.any(String) });
  });

  test("add-on plans grant their features; an override replaces the plan's grant", async () => {
    const companyId = await createCompanyOnPlan(t, team.keys.legacy, team.teamId, "check-addon", catalog.planId);
    const patched = await t.call("PATCH", `/companies/${companyId}`, { token: sk, body: { activeAddOnIds: [catalog.addOnId] } });
    expect(patched.status).toBe(200);
    expect((await check("check-addon", "exports")).body.data).toMatchObject({
      access: true,
      source: "add_on",
      planId: catalog.addOnId,
      limit: 3,
      period: "day",
    });
    await setOverride(t.db.sql, tenant, { company: companyId, featureId: catalog.features.beta, kind: "boolean", enabled: true });
    t.deps.entitlements.companyChanged(tenant, companyId); // the CLI runs in another process: its notice arrives by NOTIFY
    expect((await check("check-addon", "beta")).body.data).toMatchObject({ access: true, source: "override", planId: null });
  });
});

describe("GET /flags/check", () => {
  test("value and reason for a flag", async () => {
    const companyId = await createCompanyOnPlan(t, team.keys.legacy, team.teamId, "flag-co", catalog.planId);
    const on = await t.call("GET", "/flags/check?company=flag-co&flag=sso", { token: team.keys.publishable });
    expect(on.status).toBe(200);
    expect(on.body).toEqual({ data: { companyId, flag: "sso", value: true, reason: "enabled" } });
    const off = await t.call("GET", "/flags/check?company=flag-co&flag=beta", { token: team.keys.publishable });
    expect(off.body.data).toMatchObject({ value: false, reason: "disabled" });
  });
});

describe("a company with very many credit lots", () => {
  // Each lot's balance travels in the change notice of the batch that spends from it; 400 lots do not
  // fit one notice (PostgreSQL's limit is 8000 bytes), so the company is announced as changed instead.
  test("consumes exactly, and every instance's next check shows the new balance", async () => {
    const companyId = await createCompanyOnPlan(t, team.keys.legacy, team.teamId, "many-lots-co", catalog.planId);
    const expiry = new Date(t.clock.now() + 86_400_000);
    await t.db.sql`
      insert into credit_grants (id, team_id, environment, company_id, amount, remaining, reason, expires_at)
      select 'cgr_many_' || i, ${team.teamId}, 'development', ${companyId}, 1000000, 1000000, 'many lots', ${expiry}
      from generate_series(1, 400) i`;
    t.deps.entitlements.companyChanged(tenant, companyId); // grants written behind the service's back
    const peer = await createPeerInstance(t);
    const peerBalance = async () => (await peer.call("GET", "/check?company=many-lots-co&feature=ai-tokens", { token: sk })).body.data.creditBalance;
    expect(await peerBalance()).toBe("400000000");
    expect((await check("many-lots-co", "ai-tokens")).body.data.creditBalance).toBe("400000000");
    const res = await consume({ company: "many-lots-co", feature: "ai-tokens", quantity: 3 });
    expect(res.status).toBe(200);
    expect(res.body.data.creditBalance).toBe("399999994");
    expect((await check("many-lots-co", "ai-tokens")).body.data.creditBalance).toBe("399999994");
    const [stored] = await t.db.sql<
      { remaining: string }[]
    >`select sum(remaining)::text as remaining from credit_grants where company_id = ${companyId}`;
    expect(stored!.remaining).toBe("399999994");
    const deadline = Date.now() + 1_000;
    while ((await peerBalance()) !== "399999994" && Date.now() < deadline) await Bun.sleep(20);
    expect(await peerBalance()).toBe("399999994");
  });
});

describe("GET /entitlements", () => {
  test("every feature of the catalog for the company, by key", async () => {
    const companyId = await createCompanyOnPlan(t, team.keys.legacy, team.teamId, "ent-co", catalog.planId, 10n);
    const res = await t.call("GET", "/entitlements?company=ent-co", { token: sk });
    expect(res.status).toBe(200);
    expect(res.body.data.companyId).toBe(companyId);
    expect(res.body.data.planId).toBe(catalog.planId);
    expect(res.body.data.features.map((f: { featureKey: string }) => f.featureKey)).toEqual([
      "ai-tokens",
      "api-calls",
      "beta",
      "bulk",
      "exports",
      "sso",
    ]);
    expect(res.body.data.features.find((f: { featureKey: string }) => f.featureKey === "ai-tokens")).toMatchObject({
      access: true,
      creditBalance: "10",
    });
  });

  test("an unknown company is not an error, as for /check: every feature is off with reason company_not_found", async () => {
    const res = await t.call("GET", "/entitlements?company=nobody", { token: sk });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ companyId: "nobody", planId: null, addOnIds: [] });
    expect(res.body.data.features.length).toBe(6);
    for (const f of res.body.data.features) expect(f).toMatchObject({ companyId: "nobody", access: false, reason: "company_not_found" });
    const [created] = await t.db.sql`select count(*)::int as n from companies where external_id = 'nobody'`;
    expect(created!.n).toBe(0);
  });
});

describe("POST /usage/consume", () => {
  test("consumes all or nothing and answers with the state after the use", async () => {
    await createCompanyOnPlan(t, team.keys.legacy, team.teamId, "consume-co", catalog.planId);
    const ok = await consume({ company: "consume-co", feature: "api-calls", quantity: 4 });
    expect(ok.status).toBe(200);
    expect(ok.body.data).toMatchObject({
      access: true,
      used: 4,
      remaining: 1,
      consumed: 4,
      replayed: false,
      eventId: expect.stringMatching(/^evt_/),
    });
    const tooMany = await consume({ company: "consume-co", feature: "api-calls", quantity: 2 });
    expect(tooMany.status).toBe(429);
    expect(tooMany.body).toEqual({ error: "Limit reached", code: "limit_reached" });
    expect((await check("consume-co", "api-calls")).body.data.used).toBe(4);
  });

  test("credits burn soonest-expiring first; expired credits do not count", async () => {
    const companyId = await createCompanyOnPlan(t, team.keys.legacy, team.teamId, "burn-co", catalog.planId);
    const now = t.clock.now();
    const never = await grantCredits(t.db.sql, tenant, { company: companyId, amount: 10n }, now);
    const soon = await grantCredits(t.db.sql, tenant, { company: companyId, amount: 3n, expiresAt: new Date(now + 3_600_000) }, now);
    const later = await grantCredits(t.db.sql, tenant, { company: companyId, amount: 4n, expiresAt: new Date(now + 7_200_000) }, now);
    const expired = await grantCredits(t.db.sql, tenant, { company: companyId, amount: 50n, expiresAt: new Date(now + 1_000) }, now);
    t.clock.advance(2_000);
    expect((await consume({ company: "burn-co", feature: "ai-tokens", quantity: 2 })).status).toBe(200); // 4 credits
    const rows = await t.db.sql`select id, remaining from credit_grants where company_id = ${companyId}`;
    const left = Object.fromEntries(rows.map((r) => [r.id, r.remaining]));
    expect(left).toEqual({ [soon.id]: 0n, [later.id]: 3n, [never.id]: 10n, [expired.id]: 50n });
    expect((await check("burn-co", "ai-tokens")).body.data.creditBalance).toBe("13");
  });

  test("idempotencyKey: a retry replays and consumes nothing more", async () => {
    await createCompanyOnPlan(t, team.keys.legacy, team.teamId, "consume-idem", catalog.planId);
    const first = await consume({ company: "consume-idem", feature: "api-calls", idempotencyKey: "c-1" });
    const retry = await consume({ company: "consume-idem", feature: "api-calls", idempotencyKey: "c-1" });
    expect(retry.status).toBe(200);
    expect(retry.body.data).toMatchObject({ eventId: first.body.data.eventId, replayed: true, used: 1 });
  });

  test("idempotencyKey reused with another quantity or feature: 422, nothing consumed, never a made-up replay", async () => {
    await createCompanyOnPlan(t, team.keys.legacy, team.teamId, "consume-reuse", catalog.planId);
    expect((await consume({ company: "consume-reuse", feature: "api-calls", idempotencyKey: "r-1" })).status).toBe(200);
    for (const body of [
      { feature: "api-calls", quantity: 7 },
      { feature: "ai-tokens", quantity: 1 },
    ]) {
      const res = await consume({ company: "consume-reuse", idempotencyKey: "r-1", ...body });
      expect(res.status).toBe(422);
      expect(res.body).toEqual({
        error: "idempotencyKey was already used for a different request",
        details: { "body.idempotencyKey": "First used for 'api-calls' with quantity 1" },
      });
    }
    expect((await check("consume-reuse", "api-calls")).body.data.used).toBe(1);
    // Two different requests with one key at once: one is used, the other refused.
    const both = await Promise.all([
      consume({ company: "consume-reuse", feature: "api-calls", quantity: 2, idempotencyKey: "r-2" }),
      consume({ company: "consume-reuse", feature: "api-calls", quantity: 3, idempotencyKey: "r-2" }),
    ]);
    expect(both.map((r) => r.status).sort()).toEqual([200, 422]);
    const used = (await check("consume-reuse", "api-calls")).body.data.used;
    expect([3, 4]).toContain(used);
  });

  test("unknown company or feature is 404 and bad quantities are 400; nothing is recorded", async () => {
    const [before] = await t.db.sql`select count(*)::int as n from events`;
    expect((await consume({ company: "nobody", feature: "api-calls" })).status).toBe(404);
    expect((await consume({ company: "consume-co", feature: "nope" })).status).toBe(404);
    for (const quantity of [0, -1, 1.5, 1_000_001, "two"]) {
      const res = await consume({ company: "consume-co", feature: "api-calls", quantity });
      expect(res.status).toBe(400);
      expect(Object.keys(res.body.details)).toEqual(["body.quantity"]);
    }
    const [after] = await t.db.sql`select count(*)::int as n from events`;
    expect(after!.n).toBe(before!.n);
  });
});

describe("embed tokens are confined to their company", () => {
  test("check and consume default to the token's company; naming another is 403", async () => {
    const companyId = await createCompanyOnPlan(t, team.keys.legacy, team.teamId, "embed-ent", catalog.planId);
    await createCompanyOnPlan(t, team.keys.legacy, team.teamId, "embed-other", catalog.planId);
    const token = (await t.call("POST", "/api-keys/tokens", { token: sk, body: { company: { id: "embed-ent" } } })).body.token;
    expect((await t.call("GET", "/check?feature=sso", { token })).body.data).toMatchObject({ companyId, access: true });
    expect((await t.call("GET", "/check?feature=sso&company=embed-ent", { token })).status).toBe(200);
    expect((await t.call("GET", `/check?feature=sso&company=${companyId}`, { token })).status).toBe(200);
    const other = await t.call("GET", "/check?feature=sso&company=embed-other", { token });
    expect(other.status).toBe(403);
    expect(other.body).toEqual({ error: expect.any(String), code: "wrong_company" });
    expect((await t.call("GET", "/entitlements?company=embed-other", { token })).status).toBe(403);
    expect((await t.call("POST", "/usage/consume", { token, body: { feature: "api-calls", company: "embed-other" } })).status).toBe(403);
    const own = await t.call("POST", "/usage/consume", { token, body: { feature: "api-calls" } });
    expect(own.status).toBe(200);
    expect(own.body.data.companyId).toBe(companyId);
  });
});

describe("tenant and environment isolation", () => {
  test("another team and the production environment see none of this team's companies, features or usage", async () => {
    const companyId = await createCompanyOnPlan(t, team.keys.legacy, team.teamId, "iso-co", catalog.planId);
    await consume({ company: "iso-co", feature: "api-calls" });
    const other = await createTeamFixture(t, "Other team");
    for (const token of [other.keys.secret, team.keys.secretLive]) {
      expect((await t.call("GET", `/check?company=${companyId}&feature=api-calls`, { token })).status).toBe(404); // no such feature there
      const listed = await t.call("GET", "/entitlements?company=iso-co", { token });
      expect(listed.body.data.features.every((f: { reason: string }) => f.reason === "company_not_found")).toBe(true);
      expect((await t.call("POST", "/usage/consume", { token, body: { company: companyId, feature: "api-calls" } })).status).toBe(404);
    }
    // Same feature key in the other tenant: the company is still unknown there.
    await createCatalogFixture(t, other.teamId);
    expect((await t.call("GET", `/check?company=${companyId}&feature=api-calls`, { token: other.keys.secret })).body.data).toMatchObject({
      access: false,
      reason: "company_not_found",
    });
    expect((await t.call("GET", `/check?company=iso-co&feature=api-calls`, { token: other.keys.secret })).body.data.reason).toBe("company_not_found");
    expect((await t.call("GET", `/events?companyId=${companyId}`, { cookie: `be_session=${other.dashboardAdmin}` })).body.count).toBe(0);
  });
});
