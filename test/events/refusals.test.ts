/**
 * What a refusal (402/429 of POST /events and POST /usage/consume) keeps: without an idempotency key, a
 * count per day in usage_refusals and no event row; with one, its event row, to replay, for a retention
 * period after which the scheduled prune (`events.prune_refusals`, run here through the queue) deletes it. A refusal writes no company or user.
 */
import { describe, expect, test } from "bun:test";
import { REFUSED_EVENT_RETENTION_MS } from "../../src/modules/events/retention";
import { createTestApp } from "../helpers/app";
import { createTeamFixture } from "../helpers/fixtures";
import { createCatalogFixture, createCompanyOnPlan } from "../helpers/catalog";
import { drainJobs } from "../helpers/jobs";
import { enqueueJob } from "../../src/jobs/enqueue";

// The request limiter would answer part of 1,000 calls with its own 429.
const t = await createTestApp({ RATE_LIMIT_ENABLED: "false" });
const team = await createTeamFixture(t);
const catalog = await createCatalogFixture(t, team.teamId);
const sql = t.db.sql;
const api = team.keys.legacy;

const track = (company: Record<string, unknown>, name: string, extra: Record<string, unknown> = {}) =>
  t.call("POST", "/events", { token: api, body: { event_type: "track", name, company, ...extra } });

// Plain arrays of rows, to compare with toEqual.
const rows = async (query: Promise<Record<string, unknown>[]>) => [...(await query)];
const refusalsOf = (featureId: string) =>
  rows(
    sql`select source, company_id, outcome, day::text, count from usage_refusals where team_id = ${team.teamId} and feature_id = ${featureId} order by company_id nulls first, outcome`,
  );
const eventsNamed = async (name: string) =>
  (await sql`select outcome from events where team_id = ${team.teamId} and name = ${name} order by seq`).map((r) => r.outcome);
/** One run of the scheduled prune, through the queue, at the test clock's now. */
const prune = async () => {
  await enqueueJob(sql, "events.prune_refusals", {});
  expect((await drainJobs(t)).completed.map((j) => j.task)).toEqual(["events.prune_refusals"]);
};
const today = () => new Date(t.clock.now()).toISOString().slice(0, 10);

describe("refusals without an idempotency key", () => {
  test("1,000 refused tracks for an unknown company: no event row, one count of 1000, and no company created", async () => {
    const results = await Promise.all(
      Array.from({ length: 1000 }, () => track({ id: "refused-unknown-co", traits: { plan: "x" } }, "sso", { user: { id: "refused-unknown-user" } })),
    );
    expect(new Set(results.map((r) => `${r.status} ${r.body.code}`))).toEqual(new Set(["429 feature_not_enabled"]));
    expect(await eventsNamed("sso")).toEqual([]);
    expect(await refusalsOf(catalog.features.sso)).toEqual([
      { source: "events", company_id: null, outcome: "feature_not_enabled", day: today(), count: 1000n },
    ]);
    expect(await rows(sql`select id from companies where team_id = ${team.teamId} and external_id = 'refused-unknown-co'`)).toEqual([]);
    expect(await rows(sql`select id from users where team_id = ${team.teamId} and external_id = 'refused-unknown-user'`)).toEqual([]);
  });

  test("over quota and out of credits: counted per company, outcome and endpoint; accepted uses are stored as before", async () => {
    const quotaCo = await createCompanyOnPlan(t, api, team.teamId, "refused-count-co", catalog.planId, 2n);
    for (let i = 0; i < 8; i++) await track({ id: "refused-count-co" }, "api-calls");
    const consume = () => t.call("POST", "/usage/consume", { token: team.keys.secret, body: { company: "refused-count-co", feature: "ai-tokens" } });
    const consumed = [];
    for (let i = 0; i < 4; i++) consumed.push((await consume()).status);
    expect(consumed.filter((s) => s === 402).length).toBeGreaterThan(0);
    expect(await rows(sql`select outcome, count(*)::int as n from events where company_id = ${quotaCo} group by outcome order by outcome`)).toEqual([
      { outcome: "accepted", n: 5 + consumed.filter((s) => s === 200).length },
    ]);
    expect(await refusalsOf(catalog.features.apiCalls)).toEqual([
      { source: "events", company_id: quotaCo, outcome: "limit_reached", day: today(), count: 3n },
    ]);
    expect(await refusalsOf(catalog.features.aiTokens)).toEqual([
      {
        source: "consume",
        company_id: quotaCo,
        outcome: "insufficient_credits",
        day: today(),
        count: BigInt(consumed.filter((s) => s === 402).length),
      },
    ]);
  });
});

describe("refusals with an idempotency key", () => {
  test("keep their event to replay, until the retention has passed: then the prune deletes them and a retry is decided afresh", async () => {
    const companyId = await createCompanyOnPlan(t, api, team.teamId, "refused-keyed-co", catalog.planId);
    expect((await track({ id: "refused-keyed-co" }, "page_viewed")).status).toBe(200);
    const first = await track({ id: "refused-keyed-co" }, "beta", { idempotencyKey: "keyed-refusal-1" });
    expect(first.status).toBe(429);
    expect(await eventsNamed("beta")).toEqual(["feature_not_enabled"]);
    // Within the retention, the stored refusal answers a retry.
    t.clock.advance(REFUSED_EVENT_RETENTION_MS - 60_000);
    await prune();
    expect(await eventsNamed("beta")).toEqual(["feature_not_enabled"]);
    expect((await track({ id: "refused-keyed-co" }, "beta", { idempotencyKey: "keyed-refusal-1" })).body).toEqual(first.body);
    expect(await eventsNamed("beta")).toEqual(["feature_not_enabled"]);

    t.clock.advance(120_000);
    const recent = await track({ id: "refused-keyed-co" }, "beta", { idempotencyKey: "keyed-refusal-2" });
    expect(recent.status).toBe(429);
    await prune();
    // The old refusal is gone; the one made after the clock moved, and accepted events, stay.
    expect(await rows(sql`select idempotency_key from events where team_id = ${team.teamId} and name = 'beta'`)).toEqual([
      { idempotency_key: "keyed-refusal-2" },
    ]);
    expect(await eventsNamed("page_viewed")).toEqual(["accepted"]);
    expect((await track({ id: "refused-keyed-co" }, "beta", { idempotencyKey: "keyed-refusal-1" })).status).toBe(429);
    expect((await sql`select count(*)::int as n from events where company_id = ${companyId} and name = 'beta'`)[0]!.n).toBe(2);
  });
});
