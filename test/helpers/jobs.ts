/**
 * Running queued jobs in tests, deterministically: `drainJobs(t)` runs every job due now (and every job
 * those jobs queue for now) with the app's handlers (src/tasks.ts) over the test app's own deps (its
 * ManualClock, logger, settlement), then returns what ran. Nothing runs in the background: createTestApp
 * starts no runner. `makeJobsDue` brings retries and future jobs forward to now.
 */
import { runOnce, type TaskList, type WorkerEvents } from "graphile-worker";
import { EventEmitter } from "node:events";
import pg from "pg";
import type { Sql } from "../../src/db/client";
import { endWhenIdle, type JobHandler } from "../../src/jobs/runner";
import { graphileLogger } from "../../src/jobs/log";
import { jobHandlers } from "../../src/tasks";
import type { TestApp } from "./app";

export interface DrainResult {
  /** jobs that completed, in completion order */
  completed: { id: string; task: string; payload: unknown }[];
  /** jobs whose handler threw (they wait for a retry, or failed for good at their last attempt) */
  failed: { id: string; task: string; error: string }[];
}

export interface DrainOptions {
  /** jobs run at once (default 1, one after another); the service runs JOB_CONCURRENCY */
  concurrency?: number;
}

/** Runs every job due now, to exhaustion, with the given handlers on the database at `url`. */
export async function runJobsUntilIdle(
  url: string,
  handlers: Record<string, JobHandler>,
  logger: TestApp["logger"],
  { concurrency = 1 }: DrainOptions = {},
): Promise<DrainResult> {
  const result: DrainResult = { completed: [], failed: [] };
  const events: WorkerEvents = new EventEmitter();
  events.on("job:success", ({ job }) => result.completed.push({ id: job.id, task: job.task_identifier, payload: job.payload }));
  events.on("job:error", ({ job, error }) =>
    result.failed.push({ id: job.id, task: job.task_identifier, error: error instanceof Error ? error.message : String(error) }),
  );
  const taskList: TaskList = {};
  for (const [task, handler] of Object.entries(handlers)) {
    taskList[task] = (payload, helpers) =>
      handler(payload, {
        id: helpers.job.id,
        task,
        attempt: helpers.job.attempts,
        maxAttempts: helpers.job.max_attempts,
        signal: helpers.abortSignal,
      });
  }
  // A job of a named queue waits while the job before it holds the queue, and runOnce ends at the first fetch
  // that finds nothing: it may end before the queue's lock is released (with that job's completion). So it
  // runs again while due jobs of a named queue remain.
  do {
    // Our own pool, ended once graphile's unawaited job completions are done (as src/jobs/runner.ts does):
    // when this resolves, what ran is committed.
    const pgPool = new pg.Pool({ connectionString: url, max: concurrency + 1 });
    pgPool.on("error", () => {});
    pgPool.on("connect", (client) => client.on("error", () => {}));
    try {
      await runOnce({ pgPool, taskList, concurrency, noHandleSignals: true, logger: graphileLogger(logger), events });
    } finally {
      await endWhenIdle(pgPool);
    }
  } while (await queuedJobsDue(url));
  return result;
}

/** Whether a job of a named queue is due now and free to run. */
async function queuedJobsDue(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query(`select exists (select 1 from graphile_worker._private_jobs
      where job_queue_id is not null and locked_at is null and run_at <= now() and attempts < max_attempts) as due`);
    return rows[0].due === true;
  } finally {
    await client.end();
  }
}

/** Runs the due jobs of the test app's database with the app's registry (plus `extra` handlers, for test tasks). */
export function drainJobs(t: TestApp, extra: Record<string, JobHandler> = {}, options: DrainOptions = {}): Promise<DrainResult> {
  return runJobsUntilIdle(t.db.url, { ...jobHandlers(t.deps), ...extra }, t.logger, options);
}

/** Makes every waiting job (a retry's backoff, a future runAt) due now. Test-only: reaches into graphile's table. */
export async function makeJobsDue(sql: Sql): Promise<number> {
  return (await sql`update graphile_worker._private_jobs set run_at = now() where locked_at is null and run_at > now() and attempts < max_attempts`)
    .count;
}

/** The jobs in the queue (pending, locked or failed for good), oldest first. */
export async function queuedJobs(sql: Sql) {
  return [
    ...(await sql<{ id: string; task: string; payload: unknown; attempts: number; locked_by: string | null; key: string | null; run_at: Date }[]>`
    select j.id::text, t.identifier as task, j.payload, j.attempts, j.locked_by, j.key, j.run_at
    from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id order by j.id`),
  ];
}
