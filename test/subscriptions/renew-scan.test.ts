/**
 * The renewal scan (`subscriptions.renew_due`): one tick queues a renewal job for every subscription due, however
 * many pages they take (a backlog of thousands due at once, as on the first of a month), one job per subscription
 * however often it runs, and nothing for one not due or not live.
 */
import { expect, test } from "bun:test";
import { createPlanRecord } from "../../src/modules/catalog/plans/edit";
import { queueDueRenewals } from "../../src/modules/subscriptions/renewal/jobs";
import { createTestApp } from "../helpers/app";
import { insertDueSubscriptions, type DueTeam } from "../helpers/due-subscriptions";
import { createTeamFixture } from "../helpers/fixtures";
import { queuedJobs } from "../helpers/jobs";

const DAY_MS = 86_400_000;
const t = await createTestApp();
const actor = { kind: "test", id: "test", requestId: null };

async function dueTeam(name: string): Promise<DueTeam> {
  const tenant = { teamId: (await createTeamFixture(t, name)).teamId, environment: "development" as const };
  const plan = await createPlanRecord({ sql: t.db.sql, chains: t.config.chains, now: () => new Date(t.clock.now()) }, tenant, actor, {
    name: "Pro",
    prices: [{ billingPeriod: "monthly", amount: "10", currency: "USDC" }],
  });
  return { tenant, planId: plan.id, payee: `0x${"1".repeat(39)}${name.length % 10}`, network: "sepolia" };
}

test("one tick queues every due subscription past the scan's page, once each, and nothing else", async () => {
  const teams = [await dueTeam("Scan A"), await dueTeam("Scan B")];
  const now = new Date(t.clock.now());
  // 2,500 due (two full pages and a part), 1,200 of them due at the very same instant (ties across a page's edge).
  const due = [
    ...(await insertDueSubscriptions(t.db.sql, teams, 1_200, { anchor: new Date(now.getTime() - 40 * DAY_MS) })),
    ...(await insertDueSubscriptions(t.db.sql, teams, 1_300, { anchor: new Date(now.getTime() - 35 * DAY_MS) })),
  ];
  // Not due yet, and due but no longer live: no job.
  const notDue = await insertDueSubscriptions(t.db.sql, teams, 5, { anchor: new Date(now.getTime() - 10 * DAY_MS) });
  const canceled = await insertDueSubscriptions(t.db.sql, teams, 5, { anchor: new Date(now.getTime() - 40 * DAY_MS), status: "CANCELED" });
  const pastDue = await insertDueSubscriptions(t.db.sql, teams, 3, { anchor: new Date(now.getTime() - 40 * DAY_MS), status: "PAST_DUE" });

  const expected = new Set([...due, ...pastDue].map((d) => `renew:${d.id}`));
  expect(await queueDueRenewals(t.deps.subscriptions, now)).toBe(expected.size);
  const jobs = (await queuedJobs(t.db.sql)).filter((j) => j.task === "subscriptions.renew");
  expect(jobs).toHaveLength(expected.size);
  expect(new Set(jobs.map((j) => j.key))).toEqual(expected);
  for (const d of [...notDue, ...canceled]) expect(expected.has(`renew:${d.id}`)).toBe(false);
  const one = jobs.find((j) => j.key === `renew:${due[0]!.id}`)!;
  expect(one.payload).toEqual({ teamId: due[0]!.tenant.teamId, environment: "development", subscriptionId: due[0]!.id });

  // The next tick, before any has run: the same jobs, none added.
  expect(await queueDueRenewals(t.deps.subscriptions, now)).toBe(expected.size);
  expect((await queuedJobs(t.db.sql)).filter((j) => j.task === "subscriptions.renew")).toHaveLength(expected.size);
});
