/**
 * PostgreSQL against the table of metering cases: each case's counter and lots seeded for a company of its
 * own, the use sent through the real meter (meter_settle()), with the enforcement the service derives from
 * the TypeScript decision. The outcome, the counter and every lot's remaining must be the table's; then random
 * cases must get the same answers from both sides.
 */
import { expect, test } from "bun:test";
import fc from "fast-check";
import type { Change } from "../../src/modules/changes/publish";
import { loadCompanyState } from "../../src/modules/entitlements/company-state";
import { decide, inBurnOrder, periodBounds } from "../../src/modules/entitlements/compute";
import { Meter } from "../../src/modules/entitlements/meter";
import type { MeterRequest } from "../../src/modules/entitlements/usage";
import { enforcementOf, type Evaluation } from "../../src/modules/entitlements/service";
import { createTestApp } from "../helpers/app";
import { createCatalogFixture } from "../helpers/catalog";
import { createTeamFixture } from "../helpers/fixtures";
import { HOUR, METERING_CASES, type CaseGrant, type CaseInput } from "./metering-cases";
import { expectedOf, grantOf, outcomeOf, QUOTA_PERIOD, tsResult } from "./metering-ts";

const t = await createTestApp();
const team = await createTeamFixture(t);
const catalog = await createCatalogFixture(t, team.teamId);
const sql = t.db.sql;
const tenant = { teamId: team.teamId, environment: "development" as const };
const now = t.clock.now();
const anchor = now - 40 * 24 * HOUR;
const periodStart = periodBounds(anchor, QUOTA_PERIOD, now).start;

const published: Change[] = [];
const meter = new Meter(sql, t.clock, (changes) => published.push(...changes), { maxBatch: 10, maxConcurrent: 1 });

// Real features, for the foreign keys; the grant the table names is what decides.
const featureOf = (grant: CaseGrant) =>
  grant.kind === "quota" ? catalog.features.apiCalls : grant.kind === "credit" ? catalog.features.aiTokens : catalog.features.sso;

let companies = 0;

/** A company of its own holding the case's counter (of the current period) and lots (created oldest first). */
async function seed(c: CaseInput): Promise<string> {
  const companyId = `comp_rules_${++companies}`;
  await sql`insert into companies (id, team_id, environment, name, traits, billing_anchor)
            values (${companyId}, ${tenant.teamId}, ${tenant.environment}, 'rules', ${sql.json((c.traits ?? {}) as never)}, ${new Date(anchor)})`;
  if (c.used !== undefined) {
    await sql`insert into usage_counters (team_id, environment, company_id, feature_id, period_start, used)
              values (${tenant.teamId}, ${tenant.environment}, ${companyId}, ${featureOf(c.grant)}, ${new Date(periodStart)}, ${c.used})`;
  }
  for (const [i, lot] of (c.lots ?? []).entries()) {
    await sql`insert into credit_grants (id, team_id, environment, company_id, amount, remaining, expires_at, created_at)
              values (${`${companyId}_lot_${i}`}, ${tenant.teamId}, ${tenant.environment}, ${companyId}, ${lot.remaining > 0n ? lot.remaining : 1n},
                      ${lot.remaining}, ${lot.expiresIn === null ? null : new Date(now + lot.expiresIn)}, ${new Date(now - 24 * HOUR + i * 1000)})`;
  }
  return companyId;
}

async function stateOf(companyId: string, featureId: string) {
  const [counter] = await sql<{ used: bigint }[]>`
    select used from usage_counters where company_id = ${companyId} and feature_id = ${featureId} and period_start = ${new Date(periodStart)}`;
  const lots = await sql<{ remaining: bigint }[]>`select remaining from credit_grants where company_id = ${companyId} order by created_at`;
  return { usedAfter: counter?.used ?? 0n, lotsAfter: lots.map((l) => l.remaining) };
}

/**
 * Seeds the case, checks that TypeScript decides the same on the company as loaded from the database, sends
 * the use (twice with one key for a retry) and returns what the database decided and holds afterwards.
 */
async function runInDatabase(c: CaseInput) {
  const companyId = await seed(c);
  const featureId = featureOf(c.grant);
  const ts = tsResult(c, featureId, anchor, now);
  const grant = grantOf(c.grant, featureId);

  // The cache's view of the seeded company: the same decision, and its lots in the database's burn order.
  const loaded = (await loadCompanyState(sql, tenant, companyId, now))!;
  expect(outcomeOf(decide(grant, loaded, now, c.quantity))).toBe(ts.outcome);
  const tsLots = (lots: bigint[]) =>
    inBurnOrder(
      lots.map((remaining, i) => ({ remaining, expiresAt: c.lots![i]!.expiresIn === null ? null : now + c.lots![i]!.expiresIn! })),
      now,
    ).filter((l) => l.remaining > 0n);
  expect(loaded.lots).toEqual(tsLots((c.lots ?? []).map((l) => l.remaining)));

  const request: MeterRequest = {
    ...tenant,
    source: "consume",
    name: "rules",
    companyId,
    userId: null,
    featureId,
    quantity: c.quantity,
    traits: {},
    idempotencyKey: c.retry ? `retry-${companyId}` : null,
    enforcement: enforcementOf({ grant, decision: ts.decision } as Evaluation),
  };
  const seen = published.length;
  const first = await meter.submit(request).catch((error: unknown) => error as Error);
  const retried = c.retry && !(first instanceof Error) ? await meter.submit(request) : undefined;

  // What this instance's cache is told after a burn: the lots left, in the burn order TypeScript keeps.
  const balance = published
    .slice(seen)
    .flatMap((ch) => (ch.k === "usage" ? ch.balances : []))
    .find(([id]) => id === companyId);
  const state = await stateOf(companyId, featureId);
  // An accepted credit use always publishes the company's balance; then it must list the lots in burn order.
  const burned = c.grant?.kind === "credit" && !(first instanceof Error) && first.outcome === "accepted" && !first.replayed;
  expect(balance !== undefined).toBe(burned);
  if (balance) expect(balance[1]).toEqual(tsLots(state.lotsAfter).map((l) => [l.remaining.toString(), l.expiresAt]));
  return { first, retried, state, ts };
}

for (const c of METERING_CASES) {
  test(c.name, async () => {
    const { first, retried, state } = await runInDatabase(c);
    if (first instanceof Error) throw first;
    const expected = expectedOf(c);
    expect({ outcome: first.outcome, ...state }).toEqual(expected);
    if (c.retry) expect(retried).toMatchObject({ outcome: c.outcome, eventId: first.eventId, replayed: true });
  });
}

// Small values: the int8 edges are the table's own cases; random ones look for disagreements in the ordinary range.
const lot = fc.record({
  remaining: fc.bigInt({ min: 0n, max: 12n }),
  expiresIn: fc.option(fc.constantFrom(-HOUR, -1, 0, 1, HOUR, 2 * HOUR), { nil: null }),
});
const randomCase: fc.Arbitrary<CaseInput> = fc.record({
  grant: fc.oneof(
    fc.record({ kind: fc.constant("quota" as const), limit: fc.bigInt({ min: 0n, max: 10n }) }),
    fc.record({ kind: fc.constant("credit" as const), creditsPerUse: fc.bigInt({ min: 1n, max: 4n }) }),
  ),
  used: fc.option(fc.bigInt({ min: 0n, max: 12n }), { nil: undefined }),
  lots: fc.array(lot, { maxLength: 5 }),
  quantity: fc.bigInt({ min: 1n, max: 6n }),
});

test("random quotas and lots: TypeScript and PostgreSQL give the same outcome, counter and lots", async () => {
  await fc.assert(
    fc.asyncProperty(randomCase, async (c) => {
      const { first, state, ts } = await runInDatabase(c);
      if (first instanceof Error) throw first;
      expect({ outcome: first.outcome, ...state }).toEqual({ outcome: ts.outcome, usedAfter: ts.usedAfter, lotsAfter: ts.lotsAfter });
    }),
    { numRuns: 50 },
  );
});
