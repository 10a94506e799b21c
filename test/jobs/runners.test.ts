/**
 * Runners sharing one queue, as service and worker processes do: each job runs once; a schedule tick runs
 * once across runners; a stop lets a running job finish, or, past the grace period, returns it.
 */
import { afterAll, describe, expect, setSystemTime, test } from "bun:test";
import { cloneTestDatabase } from "../helpers/db";
import { queuedJobs } from "../helpers/jobs";
import { enqueueJob } from "../../src/jobs/enqueue";
import { startJobRunner, type JobHandler, type JobRunner } from "../../src/jobs/runner";
import type { TaskName } from "../../src/jobs/names";
import type { Schedule } from "../../src/jobs/schedules";
import { Logger } from "../../src/lib/logger";

const db = await cloneTestDatabase();
const logs: string[] = [];
const logger = new Logger(process.env.JOB_TEST_DEBUG ? "debug" : "warn", (text) =>
  process.env.JOB_TEST_DEBUG ? process.stderr.write(text) : logs.push(text),
);
const runners: JobRunner[] = [];
afterAll(async () => {
  setSystemTime();
  await Promise.all(runners.map((r) => r.stop()));
  await db.drop();
});

const TASK = "test.work" as TaskName;
const start = async (handlers: Record<string, JobHandler>, o: { graceMs?: number; schedules?: Schedule[]; concurrency?: number } = {}) => {
  const runner = await startJobRunner({
    connectionString: db.url,
    sql: db.sql,
    handlers,
    schedules: o.schedules ?? [],
    logger,
    concurrency: o.concurrency ?? 2,
    graceMs: o.graceMs ?? 5_000,
    staleMs: 30_000,
    pollIntervalMs: 200,
  });
  runners.push(runner);
  return runner;
};
const until = async (condition: () => boolean | Promise<boolean>, timeoutMs = 15_000) => {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error("timed out");
    await Bun.sleep(20);
  }
};
const stopAll = async () => {
  await Promise.all(runners.splice(0).map((r) => r.stop()));
};

describe("two runners on one queue", () => {
  test("300 jobs: each runs exactly once, and both runners take a share", async () => {
    const runs: { id: string; runner: string }[] = [];
    const handler =
      (runner: string): JobHandler =>
      async (_payload, job) => {
        await Bun.sleep(2);
        runs.push({ id: job.id, runner });
      };
    await start({ [TASK]: handler("a") });
    await start({ [TASK]: handler("b") });
    await db.sql.begin(async (tx) => {
      for (let i = 0; i < 300; i++) await enqueueJob(tx, TASK, { i } as never);
    });
    await until(() => runs.length >= 300);
    await stopAll();
    expect(runs.length).toBe(300);
    expect(new Set(runs.map((r) => r.id)).size).toBe(300);
    expect(runs.some((r) => r.runner === "a") && runs.some((r) => r.runner === "b")).toBe(true);
    expect(await queuedJobs(db.sql)).toEqual([]);
  });
});

describe("stop", () => {
  test("waits for a running job to finish, and it completes", async () => {
    let started = false;
    let finished = false;
    const runner = await start({
      [TASK]: async () => {
        started = true;
        await Bun.sleep(1_000);
        finished = true;
      },
    });
    await enqueueJob(db.sql, TASK, {} as never);
    await until(() => started);
    await runner.stop();
    expect(finished).toBe(true);
    expect(await queuedJobs(db.sql)).toEqual([]);
    runners.splice(0);
  });

  test("past the grace period, returns the running job to the queue, unlocked", async () => {
    // Far past the grace period and the stop's own work, even on a loaded machine.
    const JOB_MS = 2_000;
    let started = false;
    let returned = false;
    const runner = await start(
      {
        [TASK]: async () => {
          started = true;
          // Ignores its abort signal, as a stuck call would (and returns later: its runner's pool ends then).
          await Bun.sleep(JOB_MS);
          returned = true;
        },
      },
      { graceMs: 300 },
    );
    const id = await enqueueJob(db.sql, TASK, {} as never);
    await until(() => started);
    const before = Date.now();
    await runner.stop();
    expect(Date.now() - before).toBeLessThan(JOB_MS);
    runners.splice(0);
    const [job] = await queuedJobs(db.sql);
    expect(job).toMatchObject({ id, attempts: 1, locked_by: null });
    expect(returned).toBe(false);
    await until(() => returned);
    await db.sql`delete from graphile_worker._private_jobs`;
  }, 15_000);
});

describe("schedules", () => {
  test("a tick every minute runs once across three runners", async () => {
    const ticks: string[] = [];
    const TICK = "test.tick" as TaskName;
    const handler: JobHandler = async (payload) => void ticks.push((payload as { _cron: { ts: string } })._cron.ts);
    // graphile-worker's cron reads Date.now(): freeze it a second before a minute that is already past in
    // the database's time (so the tick's job is due at once), start the runners, then let the minute come.
    const minute = Math.floor(Date.now() / 60_000) * 60_000;
    setSystemTime(new Date(minute - 1_000));
    const schedules: Schedule[] = [{ task: TICK, cron: "* * * * *" }];
    await Promise.all([0, 1, 2].map(() => start({ [TICK]: handler }, { schedules })));
    setSystemTime(new Date(minute + 100));
    await until(() => ticks.length >= 1);
    await Bun.sleep(1_500); // time for a second execution, if there were one
    setSystemTime();
    await stopAll();
    expect(ticks).toEqual([new Date(minute).toISOString()]);
    const [known] = await db.sql`select identifier, last_execution from graphile_worker._private_known_crontabs`;
    expect(known).toEqual({ identifier: TICK, last_execution: new Date(minute) });
  }, 20_000);
});
