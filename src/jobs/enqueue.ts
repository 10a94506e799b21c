/**
 * Enqueues a job with one SQL statement on whatever `db` is: inside a postgres.js transaction (`sql.begin`)
 * the job commits or rolls back with the state change it follows (a commit never loses its side effect, a
 * rollback never sends one); on the pool it commits at once.
 */
import type { Db } from "../db/queries";
import type { TaskName, TaskPayloads } from "./names";
import { insertJob, insertJobs } from "./repo";

export interface EnqueueOptions {
  /** not before this instant (default: now) */
  runAt?: Date;
  /** at most one pending job per key: a new one replaces the pending one (its payload and runAt) */
  jobKey?: string;
  /** attempts before the job is failed for good (default 25, with exponential backoff) */
  maxAttempts?: number;
  /** jobs of one queue run one at a time, in order, across every instance (default: none, any number at once) */
  queueName?: string | null;
}

/** Adds a job for `task`; resolves to its id (a bigint as a decimal string). */
export async function enqueueJob<N extends TaskName>(db: Db, task: N, payload: TaskPayloads[N], opts: EnqueueOptions = {}): Promise<string> {
  return insertJob(db, {
    task,
    payload,
    runAt: opts.runAt ?? null,
    maxAttempts: opts.maxAttempts ?? null,
    jobKey: opts.jobKey ?? null,
    queueName: opts.queueName ?? null,
  });
}

/** Adds one job of `task` per entry, in one statement; resolves to how many were added or replaced. */
export async function enqueueJobs<N extends TaskName>(
  db: Db,
  task: N,
  jobs: readonly { payload: TaskPayloads[N]; jobKey?: string; queueName?: string | null }[],
  opts: { maxAttempts?: number } = {},
): Promise<number> {
  if (!jobs.length) return 0;
  return insertJobs(db, {
    task,
    payloads: jobs.map((j) => j.payload),
    jobKeys: jobs.map((j) => j.jobKey ?? ""),
    maxAttempts: opts.maxAttempts ?? null,
    queueNames: jobs.map((j) => j.queueName ?? ""),
  });
}
