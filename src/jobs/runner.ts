/**
 * A graphile-worker runner over our task handlers and schedules, with a heartbeat for crash recovery.
 * One per process (the service's, or `npm run worker`'s); several processes share the queue: each job is
 * locked by one worker at a time, each schedule tick is claimed by one runner.
 *
 * stop(): stops taking jobs and schedule ticks, lets in-flight jobs finish for `graceMs`, then fails the
 * ones still running back to the queue (graphile's forceful shutdown: retried later, the attempt
 * counted); jobs a pool fetched ahead but never started go back at once. Handlers that can stop early
 * listen to `job.signal`, aborted `graceMs` into the stop.
 */
import { EventEmitter } from "node:events";
import pg from "pg";
import { run, type Runner, type TaskList, type WorkerEvents, type WorkerPool } from "graphile-worker";
import type { Sql } from "../db/client";
import type { Logger } from "../lib/logger";
import { randomToken } from "../lib/ids";
import { graphileLogger } from "./log";
import { cronItems, type Schedule } from "./schedules";
import { startHeartbeat } from "./heartbeat";
import { unlockStaleWorkers } from "./repo";

/** What a handler learns about the job it runs. */
export interface JobInfo {
  id: string;
  task: string;
  /** 1 on the first run; includes this one */
  attempt: number;
  maxAttempts: number;
  /** aborted when the runner's stop has waited `graceMs` for this job */
  signal: AbortSignal;
}

export type JobHandler = (payload: unknown, job: JobInfo) => Promise<void>;

export interface JobRunnerOptions {
  /** the database of `sql` (graphile-worker opens its own pool on it) */
  connectionString: string;
  /** for heartbeats */
  sql: Sql;
  /** task name -> handler (src/tasks.ts binds the registry; tests add their own) */
  handlers: Record<string, JobHandler>;
  schedules: readonly Schedule[];
  logger: Logger;
  /** jobs run at once by this runner */
  concurrency: number;
  /** how long stop() waits for in-flight jobs before failing them back to the queue */
  graceMs: number;
  /** a worker silent this long is dead: its jobs are unlocked (heartbeats every sixth of it) */
  staleMs: number;
  /** graphile's poll interval for future jobs and retries (new jobs arrive through LISTEN at once); default 2000 */
  pollIntervalMs?: number;
  /** graphile's batching: `localQueue.size` (-1: off) and `completeJobBatchDelay` (-1: off); default off */
  tuning?: { localQueueSize?: number; completeJobBatchDelayMs?: number };
}

export interface JobRunner {
  /** this process's runner id, as recorded with its heartbeats */
  id: string;
  events: WorkerEvents;
  /** resolves when the runner stopped (by stop() or a fatal error) */
  done: Promise<void>;
  stop(): Promise<void>;
}

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

export async function startJobRunner(o: JobRunnerOptions): Promise<JobRunner> {
  const id = `runner_${randomToken(16)}`;
  const heartbeat = startHeartbeat(o.sql, id, Math.max(100, Math.floor(o.staleMs / 6)), (error) =>
    o.logger.warn("job heartbeat failed; will retry", { error: message(error) }),
  );
  const events: WorkerEvents = new EventEmitter();
  // runner.stop() can resolve before the pool's last job is completed in the database: stop() also waits
  // for the pool itself to finish.
  const pools: WorkerPool[] = [];
  events.on("pool:create", ({ workerPool }) => {
    heartbeat.add(workerPool.id);
    pools.push(workerPool);
  });
  events.on("worker:create", ({ worker }) => heartbeat.add(worker.workerId));
  // Handlers running now: a stop past its grace period leaves them running, and ends the pool only after them.
  const active = new Set<Promise<void>>();
  const taskList: TaskList = {};
  for (const [task, handler] of Object.entries(o.handlers)) {
    taskList[task] = (payload, helpers) => {
      const running = handler(payload, {
        id: helpers.job.id,
        task,
        attempt: helpers.job.attempts,
        maxAttempts: helpers.job.max_attempts,
        signal: helpers.abortSignal,
      });
      const settled = running.then(
        () => {},
        () => {},
      );
      active.add(settled);
      void settled.then(() => active.delete(settled));
      return running;
    };
  }
  // Jobs a dead process held come back before this runner starts taking jobs.
  const recovered = await unlockStaleWorkers(o.sql, o.staleMs);
  if (recovered.length) o.logger.warn("jobs of dead workers unlocked", { workers: recovered });
  // Our own pg pool, not one graphile-worker opens: graphile completes a job without awaiting the query
  // (fire and forget) and ends its own pool as soon as its workers return, so a job finished during a stop
  // would stay locked. This one is ended by stop() once no query is in flight. One connection per job,
  // plus LISTEN and cron.
  const pgPool = new pg.Pool({ connectionString: o.connectionString, max: o.concurrency + 2 });
  const connectionLost = (error: unknown) => o.logger.warn("job queue connection failed; replaced", { error: message(error) });
  pgPool.on("error", connectionLost);
  pgPool.on("connect", (client) => client.on("error", connectionLost));
  let runner: Runner;
  try {
    runner = await run({
      pgPool,
      concurrency: o.concurrency,
      noHandleSignals: true,
      pollInterval: o.pollIntervalMs ?? 2000,
      gracefulShutdownAbortTimeout: o.graceMs,
      logger: graphileLogger(o.logger),
      events,
      taskList,
      parsedCronItems: cronItems(o.schedules),
      preset: {
        worker: {
          ...(o.tuning?.localQueueSize ? { localQueue: { size: o.tuning.localQueueSize } } : {}),
          ...(o.tuning?.completeJobBatchDelayMs !== undefined ? { completeJobBatchDelay: o.tuning.completeJobBatchDelayMs } : {}),
        },
      },
    });
  } catch (error) {
    await heartbeat.stop().catch(() => {});
    await pgPool.end().catch(() => {});
    throw error;
  }
  await heartbeat.beat();
  let stopping: Promise<void> | null = null;
  const done = runner.promise.catch((error) => o.logger.error("job runner stopped on an error", { error: message(error) }));
  return {
    id,
    events,
    done,
    stop() {
      stopping ??= (async () => {
        let timer: ReturnType<typeof setTimeout> | undefined;
        const graceOver = new Promise<"timeout">((resolve) => (timer = setTimeout(() => resolve("timeout"), o.graceMs + 1000)));
        const stopped = runner.stop().then(() => "stopped" as const);
        const outcome = await Promise.race([stopped, graceOver]);
        clearTimeout(timer);
        if (outcome === "timeout") {
          // The handlers still running are left to the process's exit: their jobs are failed back to the queue.
          o.logger.warn("jobs still running after the grace period: returned to the queue");
          // (runner.kill() does nothing once a graceful stop has begun: the pool is asked directly.)
          await Promise.all(pools.map((pool) => Promise.resolve(pool.forcefulShutdown("grace period over")).catch(() => {})));
        } else {
          await Promise.all(pools.map((pool) => pool.promise.catch(() => {})));
          await done;
        }
        // The completions graphile sends without waiting: the pool ends once it has no client out. Past the
        // grace period, only after the handlers left running return (their completions are no-ops then).
        const endPool = () => endWhenIdle(pgPool);
        if (outcome === "timeout") void Promise.all(active).then(endPool);
        else await endPool();
        await heartbeat.stop();
      })();
      return stopping;
    },
  };
}

/** Ends a pg pool once no client is checked out or awaited (at most 5 s later). */
export async function endWhenIdle(pool: pg.Pool): Promise<void> {
  for (const deadline = Date.now() + 5_000; Date.now() < deadline; await Bun.sleep(10)) {
    if (pool.totalCount === pool.idleCount && pool.waitingCount === 0) break;
  }
  await pool.end().catch(() => {});
}
