/**
 * Exactness under concurrency: no quota or credit balance is ever overspent, on one instance or two
 * on the same database, and usage reaches the other instance's cache by NOTIFY.
 */
import { describe, expect, test } from "bun:test";
import { createPeerInstance, createTestApp } from "../helpers/app";
import { createTeamFixture } from "../helpers/fixtures";
import { createCatalogFixture, createCompanyOnPlan } from "../helpers/catalog";

// The request-rate limit (500 per key per minute) would refuse part of these bursts: it has its own tests.
const t = await createTestApp({ RATE_LIMIT_ENABLED: "false" });
const team = await createTeamFixture(t);
const catalog = await createCatalogFixture(t, team.teamId, "development", 500n);
const peer = await createPeerInstance(t);

/** Counts of "status code" per response, e.g. {"200": 500, "429 limit_reached": 300}. */
const statuses = (results: { status: number; body: any }[]) => {
  const out: Record<string, number> = {};
  for (const r of results) {
    const key = r.status === 200 ? "200" : `${r.status} ${r.body.code}`;
    out[key] = (out[key] ?? 0) + 1;
  }
  return out;
};

async function used(companyId: string) {
  const [row] = await t.db.sql`select coalesce(sum(used), 0)::int as n from usage_counters where company_id = ${companyId}`;
  return row!.n as number;
}

async function accepted(companyId: string) {
  const [row] = await t.db.sql`select count(*)::int as n from events where company_id = ${companyId} and outcome = 'accepted'`;
  return row!.n as number;
}

describe("800 concurrent consumes against a quota of 500", () => {
  test("one instance: exactly 500 succeed", async () => {
    const companyId = await createCompanyOnPlan(t, team.keys.legacy, team.teamId, "race-one", catalog.planId);
    const results = await Promise.all(
      Array.from({ length: 800 }, () =>
        t.call("POST", "/usage/consume", { token: team.keys.secret, body: { company: "race-one", feature: "api-calls" } }),
      ),
    );
    expect(statuses(results)).toEqual({ "200": 500, "429 limit_reached": 300 });
    expect(await used(companyId)).toBe(500);
    expect(await accepted(companyId)).toBe(500);
  });

  test("two instances on one database: exactly 500 succeed", async () => {
    const companyId = await createCompanyOnPlan(t, team.keys.legacy, team.teamId, "race-two", catalog.planId);
    const results = await Promise.all(
      Array.from({ length: 800 }, (_, i) =>
        (i % 2 === 0 ? t.call : peer.call)("POST", "/usage/consume", {
          token: team.keys.secret,
          body: { company: "race-two", feature: "api-calls" },
        }),
      ),
    );
    expect(statuses(results)).toEqual({ "200": 500, "429 limit_reached": 300 });
    expect(await used(companyId)).toBe(500);
  });

  test("track events through POST /events on two instances: exactly 500 succeed", async () => {
    const companyId = await createCompanyOnPlan(t, team.keys.legacy, team.teamId, "race-events", catalog.planId);
    const body = { event_type: "track", name: "api-calls", company: { id: "race-events" } };
    const results = await Promise.all(
      Array.from({ length: 800 }, (_, i) => (i % 2 === 0 ? t.call : peer.call)("POST", "/events", { token: team.keys.legacy, body })),
    );
    expect(statuses(results)).toEqual({ "200": 500, "429 limit_reached": 300 });
    expect(await used(companyId)).toBe(500);
    expect(await accepted(companyId)).toBe(500);
  });

  test("credits: 800 concurrent uses at 2 credits against 1000 credits, on two instances: exactly 500 succeed", async () => {
    const companyId = await createCompanyOnPlan(t, team.keys.legacy, team.teamId, "race-credits", catalog.planId, 1000n);
    const results = await Promise.all(
      Array.from({ length: 800 }, (_, i) =>
        (i % 2 === 0 ? t.call : peer.call)("POST", "/usage/consume", {
          token: team.keys.secret,
          body: { company: "race-credits", feature: "ai-tokens" },
        }),
      ),
    );
    expect(statuses(results)).toEqual({ "200": 500, "402 insufficient_credits": 300 });
    const [left] = await t.db.sql`select sum(remaining)::int as n from credit_grants where company_id = ${companyId}`;
    expect(left!.n).toBe(0);
  });

  test("retries of one idempotency key on two instances at once count once", async () => {
    const companyId = await createCompanyOnPlan(t, team.keys.legacy, team.teamId, "race-idem", catalog.planId);
    const body = { company: "race-idem", feature: "api-calls", idempotencyKey: "same-on-both" };
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) => (i % 2 === 0 ? t.call : peer.call)("POST", "/usage/consume", { token: team.keys.secret, body })),
    );
    expect(statuses(results)).toEqual({ "200": 40 });
    expect(new Set(results.map((r) => r.body.data.eventId)).size).toBe(1);
    expect(await used(companyId)).toBe(1);
  });
});

describe("cache coherence between instances", () => {
  test("usage recorded on one instance reaches the other's cache within a second, without a reload", async () => {
    const companyId = await createCompanyOnPlan(t, team.keys.legacy, team.teamId, "coherent-co", catalog.planId);
    const check = (call: typeof t.call) => call("GET", "/check?company=coherent-co&feature=api-calls", { token: team.keys.secret });
    expect((await check(peer.call)).body.data.used).toBe(0); // the peer now caches the company
    await t.call("POST", "/usage/consume", { token: team.keys.secret, body: { company: "coherent-co", feature: "api-calls", quantity: 7 } });
    expect((await check(t.call)).body.data.used).toBe(7); // same instance: at once
    const started = performance.now();
    let seen = 0;
    while (performance.now() - started < 1_000 && seen !== 7) {
      seen = (await check(peer.call)).body.data.used;
      if (seen !== 7) await Bun.sleep(5);
    }
    expect(seen).toBe(7);
    expect(await used(companyId)).toBe(7);
  });

  test("a plan change on one instance reaches the other's checks", async () => {
    const companyId = await createCompanyOnPlan(t, team.keys.legacy, team.teamId, "coherent-plan", catalog.planId);
    const check = () => peer.call("GET", "/check?company=coherent-plan&feature=exports", { token: team.keys.secret });
    expect((await check()).body.data.access).toBe(false);
    await t.call("PATCH", `/companies/${companyId}`, { token: team.keys.secret, body: { activeAddOnIds: [catalog.addOnId] } });
    const started = performance.now();
    let access = false;
    while (performance.now() - started < 1_000 && !access) {
      access = (await check()).body.data.access;
      if (!access) await Bun.sleep(5);
    }
    expect(access).toBe(true);
  });
});
