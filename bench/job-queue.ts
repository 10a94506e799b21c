/**
 * `bun bench/job-queue.ts`: graphile-worker (the queue the service uses) and pg-boss side by side, on a
 * fresh embedded PostgreSQL (or BENCH_DATABASE_URL): the cost of enqueueing a job inside a postgres.js
 * transaction, and jobs/s processed (no-op handler) with each queue's defaults and tuned. One JSON line
 * per figure on stdout, progress on stderr. Figures, never assertions (bench/README.md "Job queue").
 *
 * Environment: BENCH_JOBS (jobs per throughput run, 20000), BENCH_TX (transactions for the enqueue
 * cost, 2000), BENCH_JOB_SECONDS (a throughput run stops after this many seconds, 20).
 */
import { rm } from "node:fs/promises";
import { PgBoss } from "pg-boss";
import { createSql, type Sql, type TransactionSql } from "../src/db/client";
import { migrateDatabase } from "../src/db/migrate";
import { startEmbeddedPostgres } from "../src/db/embedded";
import { enqueueJob } from "../src/jobs/enqueue";
import { startJobRunner } from "../src/jobs/runner";
import type { TaskName } from "../src/jobs/names";
import { Logger } from "../src/lib/logger";
import { freePort, log } from "./procs";

const JOBS = Number(process.env.BENCH_JOBS ?? 20_000);
const TX = Number(process.env.BENCH_TX ?? 2_000);
const SECONDS = Number(process.env.BENCH_JOB_SECONDS ?? 20);
const TASK = "bench.noop" as TaskName;

const print = (figure: Record<string, unknown>) => process.stdout.write(JSON.stringify(figure) + "\n");

/** Microseconds per transaction of `body`, over TX sequential transactions. */
async function perTransaction(sql: Sql, body: (tx: TransactionSql, i: number) => Promise<unknown>) {
  const start = performance.now();
  for (let i = 0; i < TX; i++) await sql.begin((tx) => body(tx, i));
  return ((performance.now() - start) * 1000) / TX;
}

async function graphileThroughput(url: string, sql: Sql, tuned: boolean) {
  await sql`truncate graphile_worker._private_jobs`;
  await sql.begin(async (tx) => {
    for (let i = 0; i < JOBS; i += 1000) {
      await tx`select graphile_worker.add_jobs(array(select row(${TASK}, '{}'::json, null, null, null, null, null, null)::graphile_worker.job_spec from generate_series(1, least(1000, ${JOBS - i}))))`;
    }
  });
  let done = 0;
  const start = performance.now();
  const runner = await startJobRunner({
    connectionString: url,
    sql,
    handlers: { [TASK]: async () => void done++ },
    schedules: [],
    logger: new Logger("warn", (t) => process.stderr.write(t)),
    concurrency: 10,
    graceMs: 5_000,
    staleMs: 30_000,
    ...(tuned ? { tuning: { localQueueSize: 500, completeJobBatchDelayMs: 0 } } : {}),
  });
  while (done < JOBS && performance.now() - start < SECONDS * 1000) await Bun.sleep(20);
  const seconds = (performance.now() - start) / 1000;
  await runner.stop();
  return { jobs: done, seconds: Number(seconds.toFixed(2)), jobsPerSecond: Math.round(done / seconds) };
}

async function pgBossThroughput(boss: PgBoss, queue: string, tuned: boolean) {
  await boss.createQueue(queue);
  const n = tuned ? JOBS : Math.min(JOBS, 200);
  for (let i = 0; i < n; i += 1000)
    await boss.insert(
      queue,
      Array.from({ length: Math.min(1000, n - i) }, () => ({ data: {} })),
    );
  let done = 0;
  const start = performance.now();
  const options = tuned ? { batchSize: 100, localConcurrency: 10, pollingIntervalSeconds: 0.5, burstWhenBatchFull: true } : {};
  const id = await boss.work(queue, options, async (jobs: unknown[]) => void (done += jobs.length));
  while (done < n && performance.now() - start < SECONDS * 1000) await Bun.sleep(20);
  const seconds = (performance.now() - start) / 1000;
  await boss.offWork(queue, { id, wait: true } as never);
  return { jobs: done, seconds: Number(seconds.toFixed(2)), jobsPerSecond: Math.round(done / seconds) };
}

async function main() {
  let url = process.env.BENCH_DATABASE_URL;
  const dataDir = `${process.cwd()}/.data/bench-jobs-${Date.now()}`;
  const embedded = url ? null : await startEmbeddedPostgres(dataDir, freePort(55_500), () => {});
  url ??= embedded!.url;
  const sql = createSql(url, { max: 4 });
  try {
    await migrateDatabase(sql, url);
    await sql`create table if not exists bench_state (id bigint primary key, n int not null)`;
    const boss = new PgBoss({ connectionString: url, schema: "pgboss", supervise: false, schedule: false });
    boss.on("error", (e) => log(`pg-boss: ${e instanceof Error ? e.message : String(e)}`));
    await boss.start();
    await boss.createQueue("bench_enqueue");
    const bossDb = (tx: TransactionSql) => ({
      executeSql: async (text: string, values?: unknown[]) => ({ rows: [...(await tx.unsafe(text, (values ?? []) as never[]))] }),
    });

    log("enqueue cost: one state change per transaction, with and without a job");
    await sql`truncate bench_state`;
    const plain = await perTransaction(sql, (tx, i) => tx`insert into bench_state values (${i}, 1)`);
    await sql`truncate bench_state`;
    const graphile = await perTransaction(sql, async (tx, i) => {
      await tx`insert into bench_state values (${i}, 1)`;
      await enqueueJob(tx, TASK, { i } as never);
    });
    await sql`truncate bench_state`;
    const pgBoss = await perTransaction(sql, async (tx, i) => {
      await tx`insert into bench_state values (${i}, 1)`;
      await boss.send("bench_enqueue", { i }, { db: bossDb(tx) });
    });
    print({
      figure: "enqueue_in_transaction",
      transactions: TX,
      plainUs: Math.round(plain),
      graphileUs: Math.round(graphile),
      pgBossUs: Math.round(pgBoss),
    });
    print({
      figure: "enqueue_cost_per_job",
      graphileUs: Math.round(graphile - plain),
      pgBossUs: Math.round(pgBoss - plain),
      graphileRatio: Number((graphile / plain).toFixed(2)),
      pgBossRatio: Number((pgBoss / plain).toFixed(2)),
    });

    for (const tuned of [false, true]) {
      log(`graphile-worker throughput (${tuned ? "localQueue 500, completeJobBatchDelay 0" : "defaults"}), concurrency 10`);
      print({ figure: "graphile_worker_throughput", settings: tuned ? "tuned" : "default", ...(await graphileThroughput(url, sql, tuned)) });
    }
    for (const tuned of [false, true]) {
      log(`pg-boss throughput (${tuned ? "batchSize 100, localConcurrency 10, polling 0.5 s, burst" : "defaults"})`);
      print({
        figure: "pg_boss_throughput",
        settings: tuned ? "tuned" : "default",
        ...(await pgBossThroughput(boss, tuned ? "bench_tuned" : "bench_default", tuned)),
      });
    }
    await boss.stop({ graceful: false, wait: true } as never);
  } finally {
    await sql.end({ timeout: 5 });
    await embedded?.stop();
    if (embedded) await rm(dataDir, { recursive: true, force: true });
  }
}

await main();
