/** PATCH /companies/{id}: name, traits merge, plan and add-ons, the billing anchor; each status with its exact body. */
import { describe, expect, test } from "bun:test";
import { createTestApp } from "../helpers/app";
import { createTeamFixture, dashboardCookie } from "../helpers/fixtures";
import { createPlan } from "../../src/modules/catalog/plans/edit";
import { assignPlan } from "../../src/modules/customers/plan";
import { randomToken } from "../../src/lib/ids";
import { type Environment } from "../../src/lib/tenant";

const t = await createTestApp();
const team = await createTeamFixture(t, "Companies");
const other = await createTeamFixture(t, "Other team");
const dev = { teamId: team.teamId, environment: "development" as Environment };
const sql = t.db.sql;

const pro = await createPlan(sql, dev, { name: "Pro", tier: "pro" });
const scale = await createPlan(sql, dev, { name: "Scale", tier: "scale" });
const addOnA = await createPlan(sql, dev, { name: "Extra seats", tier: "addon", kind: "add_on" });
const addOnB = await createPlan(sql, dev, { name: "Priority support", tier: "addon", kind: "add_on" });
const retired = await createPlan(sql, dev, { name: "Legacy" });
const retiredAddOn = await createPlan(sql, dev, { name: "Legacy add-on", kind: "add_on" });
await sql`update plans set archived_at = now() where id in (${retired.id}, ${retiredAddOn.id})`;
const livePlan = await createPlan(sql, { teamId: team.teamId, environment: "production" }, { name: "Live Pro" });
const otherPlan = await createPlan(sql, { teamId: other.teamId, environment: "development" }, { name: "Their Pro" });

/** A fresh company (through the real upsert path), returning its comp_ id and external id. */
async function newCompany(token = team.keys.secret, traits: Record<string, unknown> = { seats: 10, region: "eu", limits: { api: 5 } }) {
  const externalId = `co-${randomToken(8)}`;
  const res = await t.call("POST", "/api-keys/tokens", {
    token,
    body: { company: { id: externalId, name: "Acme", email: `${externalId}@acme.test`, traits } },
  });
  expect(res.status).toBe(201);
  return { id: res.body.companyId as string, externalId };
}
const patch = (id: string, body: unknown, token = team.keys.secret, headers?: Record<string, string>) =>
  t.call("PATCH", `/companies/${id}`, { token, body, headers });
const row = async (id: string) =>
  (await sql`select name, traits, active_plan_id, active_add_on_ids, billing_anchor from companies where id = ${id}`)[0];
const audits = (id: string) =>
  sql`select actor_kind, actor_id, action, resource_type, request_id, details from audit_log where resource_id = ${id} and action = 'company.update' order by seq`;

describe("PATCH /companies/{id} 200", () => {
  test("by our id: returns {data: Company} with every field", async () => {
    const c = await newCompany();
    const res = await patch(c.id, { name: "Acme GmbH" });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      data: {
        id: c.id,
        name: "Acme GmbH",
        walletAddress: "", // the spec types Company fields as strings: unset is ""
        email: `${c.externalId}@acme.test`,
        externalId: c.externalId,
        logoUrl: "",
        traits: { seats: 10, region: "eu", limits: { api: 5 } },
        activePlanId: "",
        activeAddOnIds: [],
        billingAnchor: null,
        createdAt: expect.any(String),
        lastSeenAt: expect.any(String),
      },
    });
  });

  test("by the integrator's external id", async () => {
    const c = await newCompany();
    const res = await patch(c.externalId, { name: "By external id" });
    expect(res.status).toBe(200);
    expect(res.body.data.id).toBe(c.id);
    expect((await row(c.id))!.name).toBe("By external id");
  });

  test("traits merge key by key; a key set to null is removed; nested values are replaced whole", async () => {
    const c = await newCompany();
    const res = await patch(c.id, { traits: { seats: 25, region: null, tier: "gold", limits: { api: 9 }, absent: null } });
    expect(res.body.data.traits).toEqual({ seats: 25, tier: "gold", limits: { api: 9 } });
    expect((await row(c.id))!.traits).toEqual({ seats: 25, tier: "gold", limits: { api: 9 } });
  });

  test("an empty body changes nothing, returns the company and writes no audit record", async () => {
    const c = await newCompany();
    const before = await row(c.id);
    const res = await patch(c.id, {});
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: c.id, name: "Acme", activePlanId: "" });
    expect(await row(c.id)).toEqual(before);
    expect([...(await audits(c.id))]).toEqual([]);
  });

  test("the first plan sets the billing anchor to now; later plan changes, clearing and re-setting keep it", async () => {
    const c = await newCompany();
    const first = t.clock.now();
    try {
      await anchorSteps(c, first);
    } finally {
      t.clock.set(first);
    }
  });

  async function anchorSteps(c: { id: string; externalId: string }, first: number) {
    const onPro = await patch(c.id, { activePlanId: pro.id });
    expect(onPro.body.data).toMatchObject({ activePlanId: pro.id, billingAnchor: new Date(first).toISOString() });
    t.clock.advance(86_400_000);
    const onScale = await patch(c.id, { activePlanId: scale.id });
    expect(onScale.body.data).toMatchObject({ activePlanId: scale.id, billingAnchor: new Date(first).toISOString() });
    const cleared = await patch(c.id, { activePlanId: null });
    expect(cleared.body.data).toMatchObject({ activePlanId: "", billingAnchor: new Date(first).toISOString() });
    expect((await row(c.id))!.active_plan_id).toBeNull();
    await patch(c.id, { activePlanId: scale.id });
    // "" (what a company on no plan reads) clears the plan as null does, and stores no empty id.
    const clearedByEmpty = await patch(c.id, { activePlanId: "" });
    expect(clearedByEmpty.status).toBe(200);
    expect(clearedByEmpty.body.data).toMatchObject({ activePlanId: "", billingAnchor: new Date(first).toISOString() });
    expect((await row(c.id))!.active_plan_id).toBeNull();
    t.clock.advance(86_400_000);
    const again = await patch(c.id, { activePlanId: pro.id });
    expect(again.body.data.billingAnchor).toBe(new Date(first).toISOString());
    expect((await row(c.id))!.billing_anchor).toEqual(new Date(first));
    // GET /companies shows the same anchor.
    const listed = await t.call("GET", `/companies?search=${c.externalId}`, { token: team.keys.secret });
    expect(listed.body.data[0]).toMatchObject({ id: c.id, billingAnchor: new Date(first).toISOString() });
  }

  test("a patch that does not set a plan leaves the anchor unset", async () => {
    const c = await newCompany();
    await patch(c.id, { name: "No plan", activeAddOnIds: [addOnA.id] });
    expect((await row(c.id))!.billing_anchor).toBeNull();
  });

  test("the operator's plan assignment follows the same anchor rule", async () => {
    const c = await newCompany();
    const first = new Date(Date.UTC(2026, 2, 1));
    await assignPlan(sql, dev, { company: c.id, planId: pro.id }, first);
    await assignPlan(sql, dev, { company: c.id, planId: scale.id }, new Date(Date.UTC(2026, 3, 1)));
    expect(await row(c.id)).toMatchObject({ active_plan_id: scale.id, billing_anchor: first });
  });

  test("a company on a plan archived later keeps it through other changes", async () => {
    const c = await newCompany();
    const legacy = await createPlan(sql, dev, { name: "Soon archived" });
    expect((await patch(c.id, { activePlanId: legacy.id, activeAddOnIds: [addOnA.id] })).status).toBe(200);
    await sql`update plans set archived_at = now() where id = ${legacy.id}`;
    const res = await patch(c.id, { activePlanId: legacy.id, activeAddOnIds: [addOnA.id, addOnB.id] });
    expect(res.status).toBe(200);
    expect(res.body.data.activePlanId).toBe(legacy.id);
  });

  test("activeAddOnIds replaces the list", async () => {
    const c = await newCompany();
    expect((await patch(c.id, { activeAddOnIds: [addOnA.id, addOnB.id] })).body.data.activeAddOnIds).toEqual([addOnA.id, addOnB.id]);
    expect((await patch(c.id, { activeAddOnIds: [addOnB.id] })).body.data.activeAddOnIds).toEqual([addOnB.id]);
    expect((await patch(c.id, { activeAddOnIds: [] })).body.data.activeAddOnIds).toEqual([]);
  });

  test("audited as company.update with who, the request id and what was set; a company change notice is published", async () => {
    const c = await newCompany();
    const rid = `req-test-${randomToken(12)}`;
    const res = await patch(c.id, { name: "Audited", traits: { region: null } }, team.keys.legacy, { "x-request-id": rid });
    expect(res.status).toBe(200);
    expect([...(await audits(c.id))]).toEqual([
      {
        actor_kind: "legacy",
        actor_id: team.keyIds.legacy,
        action: "company.update",
        resource_type: "company",
        request_id: rid,
        details: { set: { name: "Audited", traits: { region: null } } },
      },
    ]);
    const viaDashboard = await t.call("PATCH", `/companies/${c.id}`, {
      ...dashboardCookie(team.dashboardAdmin, team.dashboardAdminCsrf),
      body: { name: "Dashboard" },
    });
    expect(viaDashboard.status).toBe(200);
    expect((await audits(c.id))[1]!.actor_kind).toBe("dashboard");
  });

  test("publishes one company change notice at commit", async () => {
    const c = await newCompany();
    const seen: Record<string, unknown>[] = [];
    const listener = await sql.listen("entitlement_changes", (p) => seen.push(JSON.parse(p)));
    try {
      await sql`select pg_notify('entitlement_changes', '{"k":"start"}')`;
      while (!seen.some((n) => n.k === "start")) await Bun.sleep(5);
      await patch(c.id, { name: "Notified" });
      await sql`select pg_notify('entitlement_changes', '{"k":"end"}')`;
      while (!seen.some((n) => n.k === "end")) await Bun.sleep(5);
      expect(seen.slice(seen.findIndex((n) => n.k === "start") + 1, -1)).toEqual([{ k: "company", t: team.teamId, e: "development", c: c.id }]);
    } finally {
      await listener.unlisten();
    }
  });
});

describe("PATCH /companies/{id} 400", () => {
  const cases: [string, () => unknown, Record<string, unknown>][] = [
    ["an unknown activePlanId", () => ({ activePlanId: "plan_nope" }), { "body.activePlanId": "No plan plan_nope" }],
    ["another team's plan", () => ({ activePlanId: otherPlan.id }), { "body.activePlanId": `No plan ${otherPlan.id}` }],
    ["a plan of the other environment", () => ({ activePlanId: livePlan.id }), { "body.activePlanId": `No plan ${livePlan.id}` }],
    [
      "unknown add-on ids",
      () => ({ activeAddOnIds: [addOnA.id, "plan_x", otherPlan.id] }),
      { "body.activeAddOnIds": `No plan plan_x, ${otherPlan.id}` },
    ],
    [
      "a bad plan and bad add-ons together",
      () => ({ activePlanId: "plan_a", activeAddOnIds: ["plan_b"] }),
      { "body.activePlanId": "No plan plan_a", "body.activeAddOnIds": "No plan plan_b" },
    ],
    [
      "an add-on as the plan",
      () => ({ activePlanId: addOnA.id }),
      { "body.activePlanId": `Not a plan (an add-on goes in activeAddOnIds): ${addOnA.id}` },
    ],
    ["a plan as an add-on", () => ({ activeAddOnIds: [pro.id] }), { "body.activeAddOnIds": `Not an add-on (a plan of kind add_on): ${pro.id}` }],
    [
      "an archived plan or add-on for a company without it",
      () => ({ activePlanId: retired.id, activeAddOnIds: [retiredAddOn.id] }),
      {
        "body.activePlanId": `Archived (it keeps the companies it has and takes no new one): ${retired.id}`,
        "body.activeAddOnIds": `Archived (it keeps the companies it has and takes no new one): ${retiredAddOn.id}`,
      },
    ],
    ["an empty name", () => ({ name: "" }), { "body.name": expect.any(String) }],
    ["a name of only whitespace", () => ({ name: " \t " }), { "body.name": "Expected a string of 1 to 200 characters, not all whitespace" }],
    ["traits that are a string", () => ({ traits: "seats=5" }), { "body.traits": "Expected object" }],
    ["traits that are an array", () => ({ traits: ["a"] }), { "body.traits": "Expected object" }],
    ["activeAddOnIds that is not an array", () => ({ activeAddOnIds: addOnA.id }), { "body.activeAddOnIds": expect.any(String) }],
    ["duplicate add-on ids", () => ({ activeAddOnIds: [addOnA.id, addOnA.id] }), { "body.activeAddOnIds": expect.any(String) }],
    ["a numeric activePlanId", () => ({ activePlanId: 5 }), { "body.activePlanId": expect.any(String) }],
  ];
  for (const [what, body, details] of cases) {
    test(`${what} -> {error, details}; nothing changes`, async () => {
      const c = await newCompany();
      const before = await row(c.id);
      const res = await patch(c.id, { name: "Not applied", ...(body() as object) });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: "Validation failed", details });
      expect(await row(c.id)).toEqual(before);
      expect([...(await audits(c.id))]).toEqual([]);
    });
  }
});

describe("PATCH /companies/{id} 404", () => {
  test("an unknown id -> {error}", async () => {
    const res = await patch("comp_unknown", { name: "x" });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: "No company comp_unknown" });
  });

  test("another team's company, by our id or by its external id -> 404, unchanged", async () => {
    const theirs = await newCompany(other.keys.secret);
    for (const ref of [theirs.id, theirs.externalId]) {
      const res = await patch(ref, { name: "Hijacked" });
      expect(res.status).toBe(404);
      expect(Object.keys(res.body)).toEqual(["error"]);
    }
    expect((await row(theirs.id))!.name).toBe("Acme");
  });

  test("a production key cannot touch a development company", async () => {
    const c = await newCompany();
    expect((await patch(c.id, { name: "From production" }, team.keys.secretLive)).status).toBe(404);
    expect((await patch(c.externalId, { name: "From production" }, team.keys.secretLive)).status).toBe(404);
    expect((await row(c.id))!.name).toBe("Acme");
  });
});
