/** The meter directly: group commit batches, a failing request isolated from its batch, and what a batch publishes. */
import { expect, test } from "bun:test";
import { Meter } from "../../src/modules/entitlements/meter";
import type { MeterRequest } from "../../src/modules/entitlements/usage";
import type { Change } from "../../src/modules/changes/publish";
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
const elsewhere = () => ({
  ...request(catalog.features.apiCalls),
  enforcement: { kind: "quota" as const, periodStart: Date.UTC(2025, 0, 1), limit: 100n },
});

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

test("a cache update that fails after the commit fails nothing and records nothing twice", async () => {
  const cacheErrors: unknown[] = [];
  const throwing = () => {
    throw new Error("cache broke");
  };
  const meter = new Meter(t.db.sql, t.clock, throwing, { maxBatch: 100, maxConcurrent: 1 }, (e) => cacheErrors.push(e));
  // Another period of its own, so that the counter below counts only these uses.
  const use = () => ({
    ...request(catalog.features.apiCalls),
    enforcement: { kind: "quota" as const, periodStart: Date.UTC(2024, 0, 1), limit: 100n },
  });
  const results = await Promise.all(Array.from({ length: 4 }, () => meter.submit(use())));
  expect(results.map((r) => r.outcome)).toEqual(["accepted", "accepted", "accepted", "accepted"]);
  expect(cacheErrors).toHaveLength(1);
  const [counter] = await t.db.sql<{ used: bigint }[]>`select used from usage_counters
    where company_id = ${companyId} and feature_id = ${catalog.features.apiCalls} and period_start = ${new Date(Date.UTC(2024, 0, 1))}`;
  expect(counter!.used).toBe(4n);
  const [events] = await t.db.sql<{ n: number }[]>`select count(*)::int as n from events where id = any(${results.map((r) => r.eventId)})`;
  expect(events!.n).toBe(4);
});

test("a request that fails in the database fails alone; its batch neighbours are settled", async () => {
  const meter = new Meter(t.db.sql, t.clock, () => {}, { maxBatch: 100, maxConcurrent: 1 });
  const first = meter.submit(request(catalog.features.apiCalls));
  const broken = meter.submit(request("cflag_does_not_exist")); // its counter row violates the feature foreign key
  const neighbour = meter.submit(request(catalog.features.apiCalls));
  expect((await first).outcome).toBe("accepted");
  await expect(broken).rejects.toMatchObject({ code: "23503" });
  expect((await neighbour).outcome).toBe("accepted");
  const [row] = await t.db
    .sql`select used from usage_counters where company_id = ${companyId} and feature_id = ${catalog.features.apiCalls} and period_start = ${new Date(Date.UTC(2026, 0, 1))}`;
  expect(row!.used).toBe(2n);
});

test("a large batch publishes every new value once, per tenant, in notices PostgreSQL accepts", async () => {
  // 200 + 60 counters in two tenants, two small balances, one of ~150 lots (too big to share a notice)
  // and one of ~400 lots (too big for any notice: announced as a company change instead).
  const other = await createTeamFixture(t, "Other meter team");
  const otherCatalog = await createCatalogFixture(t, other.teamId);
  const companies = async (teamId: string, prefix: string, n: number) =>
    (
      await t.db.sql<{ id: string }[]>`
      insert into companies (id, team_id, environment, name)
      select ${prefix} || i, ${teamId}, 'development', 'bulk' from generate_series(1, ${n}) i
      returning id`
    ).map((r) => r.id);
  const mine = await companies(team.teamId, "cmp_notice_a_", 204);
  const theirs = await companies(other.teamId, "cmp_notice_b_", 60);
  const expiry = new Date(t.clock.now() + 86_400_000);
  for (const [company, lots] of [
    [mine[200]!, 1],
    [mine[201]!, 2],
    [mine[202]!, 150],
    [mine[203]!, 400],
  ] as const) {
    await t.db.sql`
      insert into credit_grants (id, team_id, environment, company_id, amount, remaining, reason, expires_at)
      select ${company} || '_lot_' || i, ${team.teamId}, 'development', ${company}, 1000000, 1000000, 'lots', ${expiry}
      from generate_series(1, ${lots}) i`;
  }
  const quota = (teamId: string, companyId: string, featureId: string): MeterRequest => ({
    ...request(featureId),
    teamId,
    companyId,
    enforcement: { kind: "quota", periodStart: Date.UTC(2024, 0, 1), limit: 100n },
  });
  const requests = [
    ...mine.slice(0, 200).map((c) => quota(team.teamId, c, catalog.features.apiCalls)),
    ...theirs.map((c) => quota(other.teamId, c, otherCatalog.features.apiCalls)),
    ...mine
      .slice(200)
      .map((c): MeterRequest => ({ ...request(catalog.features.aiTokens), companyId: c, enforcement: { kind: "credit", creditsPerUse: 2n } })),
  ];
  const published: string[] = [];
  const listening = await t.db.sql.listen("entitlement_changes", (payload) => published.push(payload));
  const notices: Change[] = [];
  const meter = new Meter(t.db.sql, t.clock, (changes) => notices.push(...changes), { maxBatch: 1000, maxConcurrent: 1 });
  const results = await Promise.all(requests.map((r) => meter.submit(r)));
  expect(results.every((r) => r.outcome === "accepted")).toBe(true);

  const usage = notices.filter((n) => n.k === "usage");
  expect(usage.length).toBeGreaterThan(2); // more than fits one notice per tenant
  const counted = (teamId: string) => usage.filter((n) => n.t === teamId).flatMap((n) => n.counters);
  expect(
    counted(team.teamId)
      .map(([c]) => c)
      .sort(),
  ).toEqual(mine.slice(0, 200).sort());
  expect(
    counted(other.teamId)
      .map(([c]) => c)
      .sort(),
  ).toEqual(theirs.sort());
  expect(usage.flatMap((n) => n.counters).every(([, , , used]) => used === "1")).toBe(true);
  expect(
    usage
      .flatMap((n) => n.balances)
      .map(([c]) => c)
      .sort(),
  ).toEqual(mine.slice(200, 203).sort());
  const balances = new Map(usage.flatMap((n) => n.balances));
  expect(balances.get(mine[202]!)!.length).toBe(150);
  expect(balances.get(mine[200]!)).toEqual([["999998", expiry.getTime()]]);
  expect(notices.filter((n) => n.k === "company")).toEqual([{ k: "company", t: team.teamId, e: "development", c: mine[203]! }]);

  // What the other instances hear is exactly what this one applied.
  const deadline = Date.now() + 2_000;
  while (published.length < notices.length && Date.now() < deadline) await Bun.sleep(10);
  await listening.unlisten();
  expect(published.map((p) => JSON.parse(p)).filter((n) => n.k !== "catalog")).toEqual(notices);
  // The payloads as sent (jsonb's text, with its spaces), under the 7000 bytes the function aims for.
  for (const payload of published) expect(new TextEncoder().encode(payload).length).toBeLessThan(7000);
});
