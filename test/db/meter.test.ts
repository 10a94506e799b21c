/** The meter directly: group commit batches, and a failing request isolated from its batch. */
import { expect, test } from "bun:test";
import { Meter, type MeterRequest } from "../../src/modules/entitlements/meter";
import { createTestApp } from "../helpers/app";
import { createTeamFixture } from "../helpers/fixtures";
import { createCatalogFixture, createCompanyOnPlan } from "../helpers/catalog";

const t = await createTestApp();
const team = await createTeamFixture(t);
const catalog = await createCatalogFixture(t, team.teamId);
const companyId = await createCompanyOnPlan(t, team.keys.legacy, team.teamId, "meter-co", catalog.planId);

const request = (featureId: string): MeterRequest => ({
  teamId: team.teamId,
  environment: "development",
  source: "consume",
  name: "api-calls",
  companyId,
  userId: null,
  featureId,
  quantity: 1n,
  traits: {},
  idempotencyKey: null,
  enforcement: { kind: "quota", periodStart: Date.UTC(2026, 0, 1), limit: 10n },
});

// The batching tests count in a period of their own, so the tests below start from a known count.
const elsewhere = () => ({ ...request(catalog.features.apiCalls), enforcement: { kind: "quota" as const, periodStart: Date.UTC(2025, 0, 1), limit: 100n } });

test("requests that arrive in one turn of the event loop settle in one transaction", async () => {
  const batches: number[] = [];
  const meter = new Meter(t.db.sql, t.clock, (changes) => batches.push(changes.length), { maxBatch: 100, maxConcurrent: 1 });
  const results = await Promise.all(Array.from({ length: 5 }, () => meter.submit(elsewhere())));
  expect(results.map((r) => r.outcome)).toEqual(["accepted", "accepted", "accepted", "accepted", "accepted"]);
  expect(batches.length).toBe(1);
});

test("requests queued while a batch commits share the next transaction", async () => {
  const batches: number[] = [];
  const meter = new Meter(t.db.sql, t.clock, (changes) => batches.push(changes.length), { maxBatch: 100, maxConcurrent: 1 });
  const first = meter.submit(elsewhere());
  await new Promise((resolve) => setImmediate(resolve)); // the first batch is now on its way to the database
  const rest = Array.from({ length: 4 }, () => meter.submit(elsewhere()));
  const results = await Promise.all([first, ...rest]);
  expect(results.map((r) => r.outcome)).toEqual(["accepted", "accepted", "accepted", "accepted", "accepted"]);
  expect(batches.length).toBe(2); // the first alone, the other four together
});

test("what queued is shared among the free lanes instead of taking one lane alone", async () => {
  const batches: number[] = []; // one usage notice per batch: each batch spends the one counter
  const meter = new Meter(t.db.sql, t.clock, (changes) => batches.push(changes.length), { maxBatch: 100, maxConcurrent: 2 });
  const results = await Promise.all(Array.from({ length: 10 }, () => meter.submit(elsewhere())));
  expect(results.every((r) => r.outcome === "accepted")).toBe(true);
  expect(batches).toEqual([1, 1]);
  // Both batches wrote their events.
  const ids = results.map((r) => r.eventId);
  expect(new Set(ids).size).toBe(10);
  const rows = await t.db.sql<{ sent: number }[]>`select count(*)::int as sent from events where id = any(${ids})`;
  expect(rows[0]!.sent).toBe(10);
});

test("a request that fails in the database fails alone; its batch neighbours are settled", async () => {
  const meter = new Meter(t.db.sql, t.clock, () => {}, { maxBatch: 100, maxConcurrent: 1 });
  const first = meter.submit(request(catalog.features.apiCalls));
  const broken = meter.submit(request("cflag_does_not_exist")); // its counter row violates the feature foreign key
  const neighbour = meter.submit(request(catalog.features.apiCalls));
  expect((await first).outcome).toBe("accepted");
  await expect(broken).rejects.toMatchObject({ code: "23503" });
  expect((await neighbour).outcome).toBe("accepted");
  const [row] = await t.db.sql`select used from usage_counters where company_id = ${companyId} and feature_id = ${catalog.features.apiCalls} and period_start = ${new Date(Date.UTC(2026, 0, 1))}`;
  expect(row!.used).toBe(2n);
});
