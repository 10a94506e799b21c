/**
 * The metering write path without HTTP: the real Meter and meter_settle() on a fresh embedded
 * PostgreSQL seeded like `npm run bench`, driven by in-process clients that each keep one track event
 * in flight. It shows what the database can settle and what each event costs it, apart from the server.
 *
 *   bun bench/meter-only.ts          BENCH_CLIENTS (64), BENCH_LANES (2: batches at once),
 *                                    BENCH_DURATION_S (6), BENCH_WARMUP_S (2), BENCH_COMPANIES (1000)
 *
 * Prints one JSON line: events/s, PostgreSQL cores and CPU µs per event, this process's cores.
 */
import { rm } from "node:fs/promises";
import { createSql } from "../src/db/client";
import { migrate } from "../src/db/migrate";
import { startEmbeddedPostgres } from "../src/db/embedded";
import { Meter } from "../src/modules/entitlements/meter";
import type { MeterRequest } from "../src/modules/entitlements/usage";
import { periodBounds } from "../src/modules/entitlements/compute";
import { seedBench } from "./seed";
import { freePort, log, treeCpuSeconds } from "./procs";

const env = process.env;
const clients = Number(env.BENCH_CLIENTS ?? 64);
const lanes = Number(env.BENCH_LANES ?? 2);
const durationS = Number(env.BENCH_DURATION_S ?? 6);
const warmupS = Number(env.BENCH_WARMUP_S ?? 2);
const companyCount = Number(env.BENCH_COMPANIES ?? 1000);

const dir = `${new URL("..", import.meta.url).pathname}.data/bench-meter-${Date.now()}`;
const db = await startEmbeddedPostgres(dir, freePort(54360), () => {});
const sql = createSql(db.url, { max: 10 });
try {
  await migrate(sql);
  const seed = await seedBench(sql, companyCount);
  const [feature] = await sql<{ id: string }[]>`select id from features where team_id = ${seed.teamId} and feature_key = 'api-calls'`;
  const companies = await sql<
    { id: string; anchor: Date }[]
  >`select id, coalesce(billing_anchor, created_at) as anchor from companies where team_id = ${seed.teamId}`;
  const meter = new Meter(sql, { now: () => Date.now() }, () => {}, { maxBatch: 2000, maxConcurrent: lanes });
  // What the service submits for a track of the quota-metered `api-calls` (seed: 10^12 a month).
  const requests: MeterRequest[] = companies.map((c) => ({
    teamId: seed.teamId,
    environment: "development",
    source: "events",
    name: "api-calls",
    companyId: c.id,
    userId: null,
    featureId: feature!.id,
    quantity: 1n,
    traits: {},
    idempotencyKey: null,
    enforcement: { kind: "quota", periodStart: periodBounds(c.anchor.getTime(), "month", Date.now()).start, limit: 1_000_000_000_000n },
  }));
  const pgPid = Number((await Bun.file(`${dir}/pg/postmaster.pid`).text()).split("\n")[0]);

  let settled = 0;
  let next = 0;
  let stop = false;
  const client = async () => {
    while (!stop) {
      await meter.submit(requests[next++ % requests.length]!);
      settled++;
    }
  };
  log(`meter only: ${clients} clients, ${lanes} lanes, ${warmupS} s warmup + ${durationS} s`);
  const running = Array.from({ length: clients }, client);
  await Bun.sleep(warmupS * 1000);
  const [n0, db0, t0, cpu0] = [settled, await treeCpuSeconds(pgPid), performance.now(), process.cpuUsage()];
  await Bun.sleep(durationS * 1000);
  const [n1, db1, t1, cpu1] = [settled, await treeCpuSeconds(pgPid), performance.now(), process.cpuUsage(cpu0)];
  stop = true;
  await Promise.all(running);
  const seconds = (t1 - t0) / 1000;
  const dbSeconds = db0 === null || db1 === null ? null : db1 - db0;
  console.log(
    JSON.stringify({
      scenario: "meter_only",
      clients,
      lanes,
      durationS,
      eventsPerS: Math.round((n1 - n0) / seconds),
      dbCpuCores: dbSeconds === null ? null : Math.round((dbSeconds / seconds) * 100) / 100,
      dbCpuUsPerEvent: dbSeconds === null ? null : Math.round((dbSeconds / (n1 - n0)) * 1e7) / 10,
      clientCpuCores: Math.round(((cpu1.user + cpu1.system) / 1e6 / seconds) * 100) / 100,
    }),
  );
} finally {
  await sql.end({ timeout: 5 });
  await db.stop();
  await rm(dir, { recursive: true, force: true });
}
