/** PUT /features/{id} and DELETE /features/{id}: each status with its exact body, and what changes (or does not). */
import { describe, expect, test } from "bun:test";
import { createTestApp } from "../helpers/app";
import { createTeamFixture, dashboardCookie } from "../helpers/fixtures";
import { createPlan } from "../../src/modules/catalog/plans/edit";
import { createFeature } from "../../src/modules/catalog/features/edit";
import { setEntitlement } from "../../src/modules/catalog/entitlements/edit";
import { setOverride } from "../../src/modules/customers/plan";
import { upsertCompany } from "../../src/modules/customers/identify";
import { randomToken } from "../../src/lib/ids";
import { type Environment } from "../../src/lib/tenant";

const t = await createTestApp();
const team = await createTeamFixture(t, "Features");
const other = await createTeamFixture(t, "Other team");
const dev = { teamId: team.teamId, environment: "development" as Environment };
const sql = t.db.sql;

const uniqueKey = (prefix: string) => `${prefix}-${randomToken(8).toLowerCase()}`;
const newFeature = (input: { featureType?: string; eventKey?: string; name?: string } = {}, tenant = dev) =>
  createFeature(sql, tenant, {
    name: input.name ?? "Exports",
    featureKey: uniqueKey("exports"),
    featureType: input.featureType ?? "event",
    eventKey: input.eventKey,
    icon: "download",
    description: "CSV exports",
  });
const put = (id: string, body: unknown, token = team.keys.secret, headers?: Record<string, string>) =>
  t.call("PUT", `/features/${id}`, { token, body, headers });
const del = (id: string, token = team.keys.secret, headers?: Record<string, string>) => t.call("DELETE", `/features/${id}`, { token, headers });
const row = async (id: string) => (await sql`select name, feature_type, event_key, icon, description from features where id = ${id}`)[0];
const audits = (id: string) =>
  sql`select actor_kind, actor_id, action, resource_type, request_id, details from audit_log where resource_id = ${id} and action <> 'feature.create' order by seq`;
const requestId = () => `req-test-${randomToken(12)}`;

/**
 * The entitlement change notices committed while `work` runs. Notices arrive in commit order, so
 * everything between a start marker and an end marker sent around the work was committed by it.
 */
async function notices(work: () => Promise<unknown>): Promise<Record<string, unknown>[]> {
  const seen: Record<string, unknown>[] = [];
  const listener = await sql.listen("entitlement_changes", (payload) => seen.push(JSON.parse(payload)));
  const mark = async (k: string) => {
    await sql`select pg_notify('entitlement_changes', ${JSON.stringify({ k })})`;
    for (let i = 0; i < 200 && !seen.some((n) => n.k === k); i++) await Bun.sleep(5);
  };
  try {
    const [start, end] = [`start-${randomToken(8)}`, `end-${randomToken(8)}`];
    await mark(start);
    await work();
    await mark(end);
    return seen.slice(
      seen.findIndex((n) => n.k === start) + 1,
      seen.findIndex((n) => n.k === end),
    );
  } finally {
    await listener.unlisten();
  }
}

describe("PUT /features/{id} 200", () => {
  test("replaces every field sent and returns the Feature object", async () => {
    const f = await newFeature();
    const res = await put(f.id, {
      name: "Data exports",
      description: "Exports of any size",
      eventKey: "export.done",
      icon: "file",
      featureType: "event",
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: f.id,
      name: "Data exports",
      featureKey: f.feature_key,
      featureType: "event",
      eventKey: "export.done",
      icon: "file",
      description: "Exports of any size",
      linkedPlans: [],
      createdAt: f.created_at.toISOString(),
    });
    expect(await row(f.id)).toEqual({
      name: "Data exports",
      feature_type: "event",
      event_key: "export.done",
      icon: "file",
      description: "Exports of any size",
    });
  });

  test("partial update: omitted fields keep their value", async () => {
    const f = await newFeature({ eventKey: uniqueKey("ev") });
    const res = await put(f.id, { icon: "star" });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: "Exports", featureType: "event", eventKey: f.event_key, icon: "star", description: "CSV exports" });
    expect(await row(f.id)).toEqual({ name: "Exports", feature_type: "event", event_key: f.event_key, icon: "star", description: "CSV exports" });
  });

  test("an empty body changes nothing, returns the feature and writes no audit record", async () => {
    const f = await newFeature();
    const res = await put(f.id, {});
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: f.id, name: "Exports", icon: "download" });
    expect([...(await audits(f.id))]).toEqual([]);
  });

  test("an empty eventKey removes it; the feature's own featureKey is a valid eventKey", async () => {
    const f = await newFeature({ eventKey: uniqueKey("ev") });
    expect((await put(f.id, { eventKey: "" })).body.eventKey).toBe("");
    expect((await put(f.id, { eventKey: f.feature_key })).body.eventKey).toBe(f.feature_key);
  });

  test("linkedPlans lists the plans holding an entitlement for the feature, oldest first", async () => {
    const f = await newFeature();
    const otherFeature = await newFeature();
    const pro = await createPlan(sql, dev, { name: "Pro", tier: "pro" });
    const team_ = await createPlan(sql, dev, { name: "Team" });
    const unrelated = await createPlan(sql, dev, { name: "Unrelated" });
    await setEntitlement(sql, dev, { planId: pro.id, featureId: f.id, kind: "quota", limit: 10n, period: "month" });
    await setEntitlement(sql, dev, { planId: team_.id, featureId: f.id, kind: "boolean", enabled: false });
    await setEntitlement(sql, dev, { planId: unrelated.id, featureId: otherFeature.id, kind: "boolean" });
    const res = await put(f.id, { name: "Linked" });
    expect(res.body.linkedPlans).toEqual([
      { id: pro.id, name: "Pro", tier: "pro" },
      { id: team_.id, name: "Team", tier: "standard" },
    ]);
  });

  test("each change is audited with who, the request id, and the values before and after", async () => {
    const f = await newFeature();
    const rid = requestId();
    await put(f.id, { name: "Renamed", icon: "x" }, team.keys.secret, { "x-request-id": rid });
    expect([...(await audits(f.id))]).toEqual([
      {
        actor_kind: "secret",
        actor_id: team.keyIds.secret,
        action: "feature.update",
        resource_type: "feature",
        request_id: rid,
        details: { before: { name: "Exports", icon: "download" }, after: { name: "Renamed", icon: "x" } },
      },
    ]);
    const viaDashboard = await t.call("PUT", `/features/${f.id}`, {
      ...dashboardCookie(team.dashboardAdmin, team.dashboardAdminCsrf),
      body: { name: "Again" },
    });
    expect(viaDashboard.status).toBe(200);
    const [, second] = await audits(f.id);
    expect(second!.actor_kind).toBe("dashboard");
  });

  test("publishes one catalog change notice at commit", async () => {
    const f = await newFeature();
    const seen = await notices(() => put(f.id, { name: "Notified" }));
    expect(seen).toEqual([{ k: "catalog", t: team.teamId, e: "development" }]);
  });
});

describe("PUT /features/{id} 400", () => {
  const cases: [string, unknown, string][] = [
    ["an empty name", { name: "" }, "body.name"],
    ["a name of only whitespace", { name: " \t\n " }, "body.name"],
    ["a name that is not a string", { name: 7 }, "body.name"],
    ["an eventKey outside the key charset", { eventKey: "Export Done" }, "body.eventKey"],
    ["an unknown featureType", { featureType: "number" }, "body.featureType"],
    ["an icon that is not a string", { icon: false }, "body.icon"],
  ];
  for (const [what, body, field] of cases) {
    test(`${what} -> {error, details} naming ${field}; nothing changes`, async () => {
      const f = await newFeature();
      const before = await row(f.id);
      const res = await put(f.id, body);
      expect(res.status).toBe(400);
      expect(Object.keys(res.body).sort()).toEqual(["details", "error"]);
      expect(res.body.details).toEqual({ [field]: expect.any(String) });
      expect(await row(f.id)).toEqual(before);
      expect([...(await audits(f.id))]).toEqual([]);
    });
  }

  test("a path id that is too long -> path.id", async () => {
    const res = await put("x".repeat(201), { name: "x" });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.details)).toEqual(["path.id"]);
  });
});

describe("PUT /features/{id} 404", () => {
  test("an unknown id -> {error}", async () => {
    const res = await put("cflag_unknown", { name: "x" });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: "No feature cflag_unknown" });
  });

  test("another team's feature -> 404, unchanged", async () => {
    const theirs = await newFeature({}, { teamId: other.teamId, environment: "development" });
    const res = await put(theirs.id, { name: "Hijacked" });
    expect(res.status).toBe(404);
    expect(Object.keys(res.body)).toEqual(["error"]);
    expect((await row(theirs.id))!.name).toBe("Exports");
  });

  test("a production key cannot touch a development feature", async () => {
    const f = await newFeature();
    const res = await put(f.id, { name: "From production" }, team.keys.secretLive);
    expect(res.status).toBe(404);
    expect((await row(f.id))!.name).toBe("Exports");
  });
});

describe("PUT /features/{id} 409", () => {
  test("an eventKey already used as another feature's eventKey; nothing changes", async () => {
    const taken = uniqueKey("ev");
    const owner = await newFeature({ eventKey: taken });
    const f = await newFeature();
    const res = await put(f.id, { eventKey: taken, name: "Not applied" });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ error: `'${taken}' already names feature ${owner.id} (Exports); a track event name must name exactly one feature` });
    expect(await row(f.id)).toMatchObject({ name: "Exports", event_key: "" });
    expect([...(await audits(f.id))]).toEqual([]);
  });

  test("an eventKey equal to another feature's featureKey", async () => {
    const owner = await newFeature();
    const f = await newFeature();
    const res = await put(f.id, { eventKey: owner.feature_key });
    expect(res.status).toBe(409);
    expect(Object.keys(res.body)).toEqual(["error"]);
    expect((await row(f.id))!.event_key).toBe("");
  });

  test("the same eventKey in another team or environment is no conflict", async () => {
    const shared = uniqueKey("ev");
    await newFeature({ eventKey: shared }, { teamId: other.teamId, environment: "development" });
    await newFeature({ eventKey: shared }, { teamId: team.teamId, environment: "production" });
    const f = await newFeature();
    expect((await put(f.id, { eventKey: shared })).status).toBe(200);
  });

  test("a featureType that does not fit the plans' entitlements names the plans; nothing changes", async () => {
    const f = await newFeature();
    const pro = await createPlan(sql, dev, { name: "Pro" });
    const scale = await createPlan(sql, dev, { name: "Scale" });
    const basic = await createPlan(sql, dev, { name: "Basic" });
    await setEntitlement(sql, dev, { planId: pro.id, featureId: f.id, kind: "quota", limit: 5n, period: "day" });
    await setEntitlement(sql, dev, { planId: scale.id, featureId: f.id, kind: "credit", creditsPerUse: 2n });
    await setEntitlement(sql, dev, { planId: basic.id, featureId: f.id, kind: "boolean" });
    const res = await put(f.id, { featureType: "boolean", name: "Not applied" });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({
      error: "Feature type 'boolean' does not fit its entitlements on plans: Pro (quota), Scale (credit); change or remove them first",
    });
    expect(await row(f.id)).toMatchObject({ name: "Exports", feature_type: "event" });
    expect((await put(f.id, { featureType: "trait" })).status).toBe(409);
    expect((await put(f.id, { featureType: "event", name: "Same type" })).status).toBe(200);
  });

  test("company overrides count too", async () => {
    const f = await newFeature({ featureType: "trait" });
    await sql.begin((tx) => upsertCompany(tx, dev, { id: "override-co", name: "Override Co" }));
    await setOverride(sql, dev, { company: "override-co", featureId: f.id, kind: "trait", traitKey: "seats", traitOperator: "lte", traitValue: "5" });
    const res = await put(f.id, { featureType: "event" });
    expect(res).toMatchObject({
      status: 409,
      body: { error: "Feature type 'event' does not fit its entitlements on company overrides: Override Co (trait); change or remove them first" },
    });
  });

  test("boolean entitlements fit any type", async () => {
    const f = await newFeature({ featureType: "boolean" });
    const plan = await createPlan(sql, dev, { name: "Switches" });
    await setEntitlement(sql, dev, { planId: plan.id, featureId: f.id, kind: "boolean" });
    for (const type of ["trait", "event", "boolean"]) expect((await put(f.id, { featureType: type })).body.featureType).toBe(type);
  });
});

describe("DELETE /features/{id}", () => {
  test("200 {ok: true}: a feature without usage history goes with its overrides; audited; catalog notice", async () => {
    const f = await newFeature();
    const { company } = await sql.begin((tx) => upsertCompany(tx, dev, { id: `del-co-${randomToken(6)}` }));
    await setOverride(sql, dev, { company: company.id, featureId: f.id, kind: "quota", limit: 3n, period: "month" });
    const rid = requestId();
    let res: Awaited<ReturnType<typeof del>> | undefined;
    const seen = await notices(async () => (res = await del(f.id, team.keys.legacy, { "x-request-id": rid })));
    expect(res!.status).toBe(200);
    expect(res!.body).toEqual({ ok: true });
    expect([...(await sql`select id from features where id = ${f.id}`)]).toEqual([]);
    expect([...(await sql`select id from company_overrides where feature_id = ${f.id}`)]).toEqual([]);
    expect([...(await sql`select used from usage_counters where feature_id = ${f.id}`)]).toEqual([]);
    expect([...(await audits(f.id))]).toEqual([
      {
        actor_kind: "legacy",
        actor_id: team.keyIds.legacy,
        action: "feature.delete",
        resource_type: "feature",
        request_id: rid,
        details: { name: "Exports", featureKey: f.feature_key, featureType: "event", eventKey: "", overridesRemoved: 1 },
      },
    ]);
    expect(seen).toEqual([
      { k: "catalog", t: team.teamId, e: "development" },
      { k: "company", t: team.teamId, e: "development", c: company.id },
    ]);
    expect((await del(f.id)).status).toBe(404);
    expect((await put(f.id, { name: "Gone" })).status).toBe(404);
  });

  test("200 {ok: true}: a feature with usage history is archived instead; its counters, overrides and key stay", async () => {
    const f = await newFeature();
    const { company } = await sql.begin((tx) => upsertCompany(tx, dev, { id: `arch-co-${randomToken(6)}` }));
    await setOverride(sql, dev, { company: company.id, featureId: f.id, kind: "quota", limit: 3n, period: "month" });
    await sql`insert into usage_counters (team_id, environment, company_id, feature_id, period_start, used) values (${team.teamId}, 'development', ${company.id}, ${f.id}, now(), 2)`;
    const rid = requestId();
    const res = await del(f.id, team.keys.legacy, { "x-request-id": rid });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true });
    const [row] = await sql`select archived_at from features where id = ${f.id}`;
    expect(row!.archived_at).toBeInstanceOf(Date);
    expect([...(await sql`select used from usage_counters where feature_id = ${f.id}`)]).toEqual([{ used: 2n }]);
    expect([...(await sql`select id from company_overrides where feature_id = ${f.id}`)]).toHaveLength(1);
    expect((await audits(f.id)).map((a) => [a.action, a.request_id])).toEqual([["feature.archive", rid]]);
    // Its key stays reserved: another feature may not take it.
    const taken = await createFeature(sql, dev, { name: "Again", featureKey: f.feature_key, featureType: "event" }).catch((e) => e);
    expect(taken.status).toBe(409);
    // Deleting it again answers the same and keeps it archived.
    expect((await del(f.id)).body).toEqual({ ok: true });
  });

  test("409 while plans use it, naming them; nothing changes", async () => {
    const f = await newFeature();
    const pro = await createPlan(sql, dev, { name: "Pro" });
    const growth = await createPlan(sql, dev, { name: "Growth" });
    await setEntitlement(sql, dev, { planId: pro.id, featureId: f.id, kind: "quota", limit: 5n, period: "day" });
    await setEntitlement(sql, dev, { planId: growth.id, featureId: f.id, kind: "boolean" });
    const res = await del(f.id);
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ error: "Feature is used by plans: Growth, Pro; remove it from them first" });
    expect([...(await sql`select id from features where id = ${f.id}`)]).toHaveLength(1);
    expect([...(await sql`select plan_id from plan_entitlements where feature_id = ${f.id}`)]).toHaveLength(2);
    expect([...(await audits(f.id))]).toEqual([]);
  });

  test("404 for an unknown id, another team's feature, or a feature of the other environment; nothing deleted", async () => {
    expect(await del("cflag_unknown")).toMatchObject({ status: 404, body: { error: "No feature cflag_unknown" } });
    const theirs = await newFeature({}, { teamId: other.teamId, environment: "development" });
    const theirsRes = await del(theirs.id);
    expect(theirsRes.status).toBe(404);
    expect(Object.keys(theirsRes.body)).toEqual(["error"]);
    const mine = await newFeature();
    expect((await del(mine.id, team.keys.secretLive)).status).toBe(404);
    expect([...(await sql`select id from features where id in ${sql([theirs.id, mine.id])}`)]).toHaveLength(2);
  });
});

describe("catalog rules behind the routes", () => {
  test("an entitlement's kind must fit the feature type (quota and credit need event, trait needs trait)", async () => {
    const f = await newFeature({ featureType: "boolean" });
    const plan = await createPlan(sql, dev, { name: "Misfit" });
    await expect(setEntitlement(sql, dev, { planId: plan.id, featureId: f.id, kind: "quota", limit: 1n, period: "day" })).rejects.toMatchObject({
      status: 400,
    });
    await expect(setOverride(sql, dev, { company: "override-co", featureId: f.id, kind: "credit", creditsPerUse: 1n })).rejects.toMatchObject({
      status: 400,
    });
  });

  test("a new feature cannot claim a track name another feature answers to", async () => {
    const owner = await newFeature({ eventKey: uniqueKey("ev") });
    await expect(createFeature(sql, dev, { name: "Clash", featureKey: owner.event_key, featureType: "event" })).rejects.toMatchObject({
      status: 409,
    });
    await expect(
      createFeature(sql, dev, { name: "Clash", featureKey: uniqueKey("ok"), featureType: "event", eventKey: owner.feature_key }),
    ).rejects.toMatchObject({ status: 409 });
    await expect(
      createFeature(sql, dev, { name: "Bad", featureKey: uniqueKey("ok"), featureType: "event", eventKey: "Not A Key" }),
    ).rejects.toMatchObject({ status: 400 });
  });
});
