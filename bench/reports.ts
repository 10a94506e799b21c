/**
 * The dashboard's report queries (docs/reports.md) on one tenant's year of data, timed as the routes run them
 * (src/modules/reports/repo.ts, prepared): usage per feature per day over 30 and 366 days, of every feature and of
 * one; revenue and renewals per month over 12 and 36 months. Plus each statement's plan (EXPLAIN ANALYZE).
 * Figures, no asserts.
 *
 *   bun bench/reports.ts     BENCH_EVENTS (200000, spread over 365 days and 5 features), BENCH_INVOICES (20000),
 *                            BENCH_RUNS (50 per scenario), BENCH_DATABASE_URL (else a fresh embedded PostgreSQL)
 *
 * One JSON line per scenario on stdout ({scenario, runs, p50Ms, p99Ms, rows}), then `{"plans": …}`; progress on stderr.
 */
import { rm } from "node:fs/promises";
import { createSql } from "../src/db/client";
import { migrate } from "../src/db/migrate";
import { startEmbeddedPostgres } from "../src/db/embedded";
import { createTeam } from "../src/modules/teams/team";
import { createFeature } from "../src/modules/catalog/features/edit";
import { dayRange, monthRange } from "../src/modules/reports/compute";
import { renewalsPerMonth, revenuePerMonth, usagePerDay } from "../src/modules/reports/repo";
import { seedInvoices } from "./invoice-seed";
import { freePort, log } from "./procs";

const env = process.env;
const events = Number(env.BENCH_EVENTS ?? 200_000);
const invoices = Number(env.BENCH_INVOICES ?? 20_000);
const runs = Number(env.BENCH_RUNS ?? 50);
const root = new URL("..", import.meta.url).pathname;
const dir = `${root}.data/bench-reports-${Date.now()}`;
const cleanups: (() => Promise<unknown>)[] = [() => rm(dir, { recursive: true, force: true })];
/** The clock the reports are read at (fixed, so runs compare). */
const NOW = Date.parse("2026-06-30T12:00:00Z");

async function main() {
  let url = env.BENCH_DATABASE_URL;
  if (!url) {
    const db = await startEmbeddedPostgres(dir, freePort(54470), () => {});
    cleanups.push(() => db.stop());
    url = db.url;
  }
  const sql = createSql(url, { max: 4 });
  cleanups.push(() => sql.end({ timeout: 5 }));
  await migrate(sql);
  const team = await createTeam(sql, "Bench reports");
  const tenant = { teamId: team.id, environment: "development" as const };
  const features: string[] = [];
  for (let k = 0; k < 5; k++) features.push((await createFeature(sql, tenant, { name: `F${k}`, featureKey: `f-${k}`, featureType: "event" })).id);
  // Another tenant of the same size, so the statements must find this one's rows among others.
  const other = await createTeam(sql, "Bench other");
  const t0 = performance.now();
  for (const teamId of [team.id, other.id]) {
    await sql`
      insert into events (id, team_id, environment, source, event_type, name, company_id, feature_id, quantity, outcome, sent_at)
      select 'evt_bench' || ${teamId} || i, ${teamId}, 'development', 'consume', 'track', 'f', 'comp_bench',
             (${features}::text[])[1 + i % 5], 1 + i % 3, case when i % 10 = 0 then 'limit_reached' else 'accepted' end,
             ${new Date(NOW)}::timestamptz - make_interval(secs => (i::float8 * 365 * 86400 / ${events})::int)
      from generate_series(1, ${events}::int) as i`;
  }
  await seedInvoices(sql, team.id, invoices, new Date(NOW - 86_400_000));
  await sql`analyze`;
  log(`seeded ${events} events per tenant and ${invoices} invoices in ${Math.round(performance.now() - t0)} ms`);

  const scenarios: [string, () => Promise<unknown[]>][] = [
    ["usage_30d_all", () => usagePerDay(sql, tenant, dayRange(NOW), null)],
    ["usage_30d_one", () => usagePerDay(sql, tenant, dayRange(NOW), features[0]!)],
    ["usage_366d_all", () => usagePerDay(sql, tenant, dayRange(NOW, "2025-06-30", "2026-06-30"), null)],
    ["revenue_12m", () => revenuePerMonth(sql, tenant, monthRange(NOW).start, monthRange(NOW).end)],
    ["revenue_36m", () => revenuePerMonth(sql, tenant, monthRange(NOW, "2023-07").start, monthRange(NOW).end)],
    ["renewals_12m", () => renewalsPerMonth(sql, tenant, monthRange(NOW).start, monthRange(NOW).end)],
  ];
  for (const [scenario, run] of scenarios) {
    let rows = 0;
    for (let i = 0; i < 5; i++) rows = (await run()).length; // warm, and past PostgreSQL's five custom plans
    const ms: number[] = [];
    for (let i = 0; i < runs; i++) {
      const s = performance.now();
      await run();
      ms.push(performance.now() - s);
    }
    ms.sort((a, b) => a - b);
    const at = (q: number) => Math.round(ms[Math.min(ms.length - 1, Math.floor(q * ms.length))]! * 100) / 100;
    console.log(JSON.stringify({ scenario, runs, p50Ms: at(0.5), p99Ms: at(0.99), rows }));
  }
  const year = dayRange(NOW, "2025-06-30", "2026-06-30");
  const plan = async (text: string, params: unknown[]) =>
    (await sql.unsafe(`explain (analyze, buffers off, timing off, summary on) ${text}`, params as never[])).map((r) => r["QUERY PLAN"]);
  const file = (name: string) => Bun.file(`${root}sql/queries/${name}.sql`).text();
  const plans = {
    usage_366d_all: await plan(await file("report_usage_daily"), [team.id, "development", year.start, year.end, null]),
    revenue_12m: await plan(await file("report_revenue_monthly"), [team.id, "development", monthRange(NOW).start, monthRange(NOW).end]),
  };
  console.log(JSON.stringify({ plans, config: { events, invoices, runs } }));
}

try {
  await main();
} catch (e) {
  log(`failed: ${e instanceof Error ? e.stack : e}`);
  process.exitCode = 1;
} finally {
  for (const undo of cleanups.reverse()) await undo().catch((e) => log(`cleanup: ${e instanceof Error ? e.message : e}`));
}
