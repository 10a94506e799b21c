/**
 * GET /dashboard/companies/{id} is the company as GET /companies lists it; .../entitlements and .../check answer what GET /entitlements and GET /check answer for
 * the company; PUT and DELETE .../overrides/{feature} change it, validated as plan entitlements are, audited, and
 * seen by /check at once.
 */
import { describe, expect, test } from "bun:test";
import { createTestApp } from "../helpers/app";
import { createTeamFixture } from "../helpers/fixtures";
import { createCatalogFixture, createCompanyOnPlan } from "../helpers/catalog";

const t = await createTestApp();
t.clock.set(Date.UTC(2026, 2, 10, 12));
const team = await createTeamFixture(t);
const other = await createTeamFixture(t, "Other team");
const catalog = await createCatalogFixture(t, team.teamId);
const sk = team.keys.secret;
const admin = team.dashboardAdmin;
const companyId = await createCompanyOnPlan(t, team.keys.legacy, team.teamId, "acme", catalog.planId, 7n);
await t.call("POST", "/usage/consume", { token: sk, body: { company: "acme", feature: "api-calls", quantity: 2 } });

const dash = (method: string, path: string, body?: unknown, token = admin) => t.call(method, path, { token, body });

describe("reading what a company gets", () => {
  test("the company: as GET /companies lists it, by our id or the integrator's; 404 for none or another team's", async () => {
    const listed = (await t.call("GET", "/companies?search=acme", { token: sk })).body.data[0];
    expect((await dash("GET", `/dashboard/companies/${companyId}`)).body.data).toEqual(listed);
    expect((await dash("GET", "/dashboard/companies/acme")).body.data).toEqual(listed);
    expect((await dash("GET", "/dashboard/companies/nobody")).status).toBe(404);
    expect((await dash("GET", `/dashboard/companies/${companyId}`, undefined, other.dashboardAdmin)).status).toBe(404);
  });

  test("entitlements: the features are exactly GET /entitlements' answer, by our id or the integrator's; no overrides yet", async () => {
    const api = await t.call("GET", "/entitlements?company=acme", { token: sk });
    for (const ref of [companyId, "acme"]) {
      const res = await dash("GET", `/dashboard/companies/${ref}/entitlements`);
      expect(res.status).toBe(200);
      const { overrides, ...rest } = res.body.data;
      expect(rest).toEqual(api.body.data);
      expect(overrides).toEqual([]);
    }
    const apiCalls = api.body.data.features.find((f: { featureKey: string }) => f.featureKey === "api-calls");
    expect(apiCalls).toMatchObject({ limit: 5, used: 2, remaining: 3 });
    const credits = api.body.data.features.find((f: { featureKey: string }) => f.featureKey === "ai-tokens");
    expect(credits).toMatchObject({ creditsPerUse: "2", creditBalance: "7" });
  });

  test("check: exactly GET /check's answer, quantity included", async () => {
    for (const q of ["feature=api-calls", "feature=api-calls&quantity=4", "feature=bulk", "feature=sso"]) {
      const api = await t.call("GET", `/check?company=acme&${q}`, { token: sk });
      expect((await dash("GET", `/dashboard/companies/acme/check?${q}`)).body).toEqual(api.body);
    }
  });

  test("an unknown company, one of another team, an unknown feature: 404 with the API's message", async () => {
    const missing = await dash("GET", "/dashboard/companies/nobody/entitlements");
    expect(missing.status).toBe(404);
    expect(missing.body.error).toBe("No company nobody");
    expect((await dash("GET", `/dashboard/companies/${companyId}/entitlements`, undefined, other.dashboardAdmin)).status).toBe(404);
    expect((await dash("GET", `/dashboard/companies/${companyId}/check?feature=sso`, undefined, other.dashboardAdmin)).status).toBe(404);
    const feature = await dash("GET", "/dashboard/companies/acme/check?feature=nope");
    expect(feature.status).toBe(404);
  });
});

describe("overrides", () => {
  test("a boolean override turns a feature off, /check says so at once, the answer lists it; removed, the plan applies again", async () => {
    const before = (await t.call("GET", "/check?company=acme&feature=sso", { token: sk })).body.data;
    expect(before).toMatchObject({ access: true, source: "plan" });
    const set = await dash("PUT", "/dashboard/companies/acme/overrides/sso", { kind: "boolean", enabled: false });
    expect(set.status).toBe(200);
    expect(set.body.data).toMatchObject({ companyId, featureId: catalog.features.sso, kind: "boolean", enabled: false });
    expect((await t.call("GET", "/check?company=acme&feature=sso", { token: sk })).body.data).toMatchObject({
      access: false,
      reason: "disabled",
      source: "override",
    });
    const listed = (await dash("GET", "/dashboard/companies/acme/entitlements")).body.data.overrides;
    expect(listed).toEqual([
      {
        featureId: catalog.features.sso,
        featureKey: "sso",
        kind: "boolean",
        enabled: false,
        limit: null,
        period: null,
        creditsPerUse: null,
        traitKey: null,
        traitOperator: null,
        traitValue: null,
      },
    ]);
    const removed = await dash("DELETE", "/dashboard/companies/acme/overrides/sso");
    expect(removed.status).toBe(200);
    expect(removed.body.data).toMatchObject({ companyId, featureId: catalog.features.sso, kind: "boolean" });
    expect((await t.call("GET", "/check?company=acme&feature=sso", { token: sk })).body.data).toEqual(before);
    expect((await dash("GET", "/dashboard/companies/acme/entitlements")).body.data.overrides).toEqual([]);
    const again = await dash("DELETE", "/dashboard/companies/acme/overrides/sso");
    expect(again.status).toBe(404);
  });

  test("a trait rule override, and a quota one: /check applies them", async () => {
    const rule = await dash("PUT", `/dashboard/companies/${companyId}/overrides/bulk`, {
      kind: "trait",
      traitKey: "plan_tier",
      traitOperator: "eq",
      traitValue: "gold",
    });
    expect(rule.status).toBe(200);
    expect((await t.call("GET", "/check?company=acme&feature=bulk", { token: sk })).body.data).toMatchObject({
      access: false,
      reason: "trait_not_matched",
      source: "override",
    });
    const quota = await dash("PUT", "/dashboard/companies/acme/overrides/api-calls", { kind: "quota", limit: "100", period: "month" });
    expect(quota.body.data).toMatchObject({ limit: "100", period: "month" });
    expect((await t.call("GET", "/check?company=acme&feature=api-calls", { token: sk })).body.data).toMatchObject({ limit: 100, used: 2 });
    await dash("DELETE", "/dashboard/companies/acme/overrides/bulk");
    await dash("DELETE", "/dashboard/companies/acme/overrides/api-calls");
  });

  test("refused as a plan entitlement is, before any change: fields the kind needs, a kind the type cannot take; 404s", async () => {
    const quota = await dash("PUT", "/dashboard/companies/acme/overrides/api-calls", { kind: "quota" });
    expect(quota.status).toBe(400);
    expect(Object.keys(quota.body.details)).toEqual(["limit", "period"]);
    const trait = await dash("PUT", "/dashboard/companies/acme/overrides/bulk", { kind: "trait", traitKey: "seats" });
    expect(trait.status).toBe(400);
    expect(trait.body.details).toEqual({ traitOperator: "required", traitValue: "required" });
    const misfit = await dash("PUT", "/dashboard/companies/acme/overrides/sso", { kind: "quota", limit: 3, period: "day" });
    expect(misfit.status).toBe(400);
    expect(misfit.body.details.kind).toContain("event feature");
    const badKind = await dash("PUT", "/dashboard/companies/acme/overrides/sso", { kind: "maybe" });
    expect(badKind.status).toBe(400);
    expect((await dash("PUT", "/dashboard/companies/nobody/overrides/sso", { kind: "boolean" })).status).toBe(404);
    expect((await dash("PUT", "/dashboard/companies/acme/overrides/nope", { kind: "boolean" })).status).toBe(404);
    expect((await dash("PUT", `/dashboard/companies/${companyId}/overrides/sso`, { kind: "boolean" }, other.dashboardAdmin)).status).toBe(404);
    expect((await dash("GET", "/dashboard/companies/acme/entitlements")).body.data.overrides).toEqual([]);
  });

  test("each change is in the audit log with the operator who made it", async () => {
    await dash("PUT", "/dashboard/companies/acme/overrides/beta", { kind: "boolean", enabled: true });
    await dash("DELETE", "/dashboard/companies/acme/overrides/beta");
    const rows = await t.db.sql`
      select action, actor_kind from audit_log where team_id = ${team.teamId} and action like 'override.%' order by seq desc limit 2`;
    expect(rows.map((r) => r.action)).toEqual(["override.remove", "override.set"]);
    expect(rows.every((r) => r.actor_kind === "dashboard")).toBe(true);
  });

  test("catalog:read alone may neither read a company's entitlements nor change an override", async () => {
    expect((await dash("GET", "/dashboard/companies/acme/entitlements", undefined, team.dashboardCatalog)).status).toBe(403);
    const put = await dash("PUT", "/dashboard/companies/acme/overrides/sso", { kind: "boolean", enabled: false }, team.dashboardCatalog);
    expect(put.status).toBe(403);
    expect((await t.call("GET", "/check?company=acme&feature=sso", { token: sk })).body.data.access).toBe(true);
  });
});
