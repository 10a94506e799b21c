/**
 * GET /invoices and GET /invoices/{id} on 100,000 invoices of one tenant, through the real server: latency
 * (p50, p99) and throughput of each, next to GET /health (one `select 1` through the same stack) measured in
 * the same run; plus the plans PostgreSQL chooses for the list statements (custom and generic: postgres.js
 * runs them prepared, and after five executions PostgreSQL may keep a generic plan). Figures, no asserts.
 *
 *   bun bench/invoices-list.ts     BENCH_INVOICES (100000), BENCH_CONNECTIONS (1,8: each scenario at each),
 *                                  BENCH_DURATION_S (5), BENCH_WARMUP_S (1), BENCH_DATABASE_URL (else a fresh
 *                                  embedded PostgreSQL)
 *
 * At 1 connection the latencies are a request's own; at 8 they include waiting for the 2 cores and the pool.
 *
 * One JSON line per scenario on stdout, then `{"plans": …}` and `{"summary": …}`; progress on stderr.
 */
import { rm } from "node:fs/promises";
import { createSql } from "../src/db/client";
import { migrate } from "../src/db/migrate";
import { startEmbeddedPostgres } from "../src/db/embedded";
import { createKey } from "../src/modules/teams/keys";
import { createTeam } from "../src/modules/teams/team";
import { explainListPlans } from "./invoice-plans";
import { DOMAINS, seedInvoices } from "./invoice-seed";
import { freePort, log, runLoader, startServer, stopServer, waitReady } from "./procs";

const env = process.env;
const count = Number(env.BENCH_INVOICES ?? 100_000);
const concurrencies = (env.BENCH_CONNECTIONS ?? "1,8").split(",").map(Number);
const durationS = Number(env.BENCH_DURATION_S ?? 5);
const warmupS = Number(env.BENCH_WARMUP_S ?? 1);
const root = new URL("..", import.meta.url).pathname;
const dir = `${root}.data/bench-invoices-${Date.now()}`;
const cleanups: (() => Promise<unknown>)[] = [() => rm(dir, { recursive: true, force: true })];

/** `n` values spread over 1..count (deterministic, so runs compare). */
const spread = (n: number) => Array.from({ length: n }, (_, k) => 1 + Math.floor(((k * 7919) % n) * (count / n)));
const pad = (i: number, width: number) => String(i).padStart(width, "0");

async function main() {
  let url = env.BENCH_DATABASE_URL;
  if (!url) {
    const db = await startEmbeddedPostgres(dir, freePort(54460), () => {});
    cleanups.push(() => db.stop());
    url = db.url;
  }
  await Bun.write(`${dir}/.keep`, "");
  const sql = createSql(url, { max: 4 });
  cleanups.push(() => sql.end({ timeout: 5 }));
  await migrate(sql);
  const team = await createTeam(sql, "Bench invoices");
  const key = (await createKey(sql, { teamId: team.id, environment: "development", type: "SECRET", name: "bench" }, Date.now())).key;
  const t0 = performance.now();
  await seedInvoices(sql, team.id, count, new Date());
  log(`seeded ${count} invoices in ${Math.round(performance.now() - t0)} ms`);

  const plans = await explainListPlans(sql, { teamId: team.id, environment: "development" }, count);

  const port = freePort(3950);
  const server = startServer(
    "app",
    [`${root}src/index.ts`],
    {
      DATABASE_URL: url,
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: dir,
      LOG_LEVEL: "warn",
      RATE_LIMIT_ENABLED: "false",
      JOBS_IN_PROCESS: "false",
    },
    `${dir}/app.log`,
  );
  cleanups.push(() => stopServer(server));
  await waitReady(server, `http://127.0.0.1:${port}/api/v1/health`);

  const auth = { authorization: `Bearer ${key}` };
  const get = (path: string) => ({ method: "GET", path: `/api/v1${path}`, headers: auth });
  const scenarios: [string, { method: string; path: string; headers?: Record<string, string> }[]][] = [
    ["health_baseline", [{ method: "GET", path: "/api/v1/health" }]],
    ["get_invoice", spread(1000).map((i) => get(`/invoices/in_bench${pad(i, 8)}`))],
    // Issued numbers only (drafts are DRAFT-<id>): i % 20 >= 2.
    ["list_q_number", spread(1000).map((i) => get(`/invoices?q=INV-${pad(i - (i % 20) + 5, 6)}`))],
    ["list_q_email_narrow", spread(1000).map((i) => get(`/invoices?q=buyer${i % 20000}@`))],
    ["list_q_email_broad", DOMAINS.map((d) => get(`/invoices?q=@${d}`))],
    ["list_status_paid", [get("/invoices?status=PAID")]],
    ["list_newest", [get("/invoices")]],
  ];
  const results: Record<string, Record<string, unknown>> = {};
  for (const connections of concurrencies)
    for (const [name, requests] of scenarios) {
      const requestsFile = `${dir}/${name}.json`;
      await Bun.write(requestsFile, JSON.stringify(requests));
      log(`${name}: ${warmupS} s warmup + ${durationS} s at ${connections} connections`);
      const r = await runLoader({ scenario: name, url: `http://127.0.0.1:${port}`, requestsFile, connections, durationS, warmupS });
      results[`${name}@${connections}`] = r;
      console.log(JSON.stringify(r));
    }
  console.log(JSON.stringify({ plans }));
  const summary: Record<string, unknown> = {};
  for (const connections of concurrencies) {
    const base = results[`health_baseline@${connections}`]!;
    const figures = (name: string) => {
      const r = results[`${name}@${connections}`]!;
      const ratio = (field: string) => Math.round((Number(r[field]) / Number(base[field])) * 100) / 100;
      return { p50Ms: r.p50Ms, p99Ms: r.p99Ms, okRps: r.okRps, p50_vs_health: ratio("p50Ms"), rps_vs_health: ratio("okRps") };
    };
    summary[`connections_${connections}`] = Object.fromEntries(scenarios.map(([name]) => [name, figures(name)]));
  }
  const config = {
    invoices: count,
    concurrencies,
    durationS,
    warmupS,
    server: "LOG_LEVEL=warn, RATE_LIMIT_ENABLED=false, JOBS_IN_PROCESS=false, pool 10",
  };
  console.log(JSON.stringify({ summary, config }));
}

try {
  await main();
} catch (e) {
  log(`failed: ${e instanceof Error ? e.stack : e}`);
  process.exitCode = 1;
} finally {
  for (const undo of cleanups.reverse()) await undo().catch((e) => log(`cleanup: ${e instanceof Error ? e.message : e}`));
}
