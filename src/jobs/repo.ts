/**
 * The statements of the job queue: adding jobs, the runners' heartbeats, and crash recovery.
 *
 * Crash recovery. graphile-worker leaves a job taken by a process that died (kill -9, a lost machine)
 * locked for 4 hours. Runners write heartbeats (src/jobs/heartbeat.ts); this unlocks, at once, the jobs
 * locked longer than `staleMs` by workers whose heartbeat is older than `staleMs`, so another runner
 * takes them. Run at each runner's start and by the `jobs.recover_stale` schedule. A live worker whose
 * job runs longer than `staleMs` keeps it: its heartbeat is fresh.
 */
import type { Sql } from "../db/client";
import { queries, run, runOne, type Db } from "../db/queries";

const Q = queries(["job_enqueue", "job_enqueue_many", "job_unlock_stale_workers", "job_worker_heartbeat_upsert", "job_worker_heartbeat_delete"]);

/** One job row as enqueue.ts adds it; resolves to its id. */
export async function insertJob(
  db: Db,
  job: { task: string; payload: unknown; runAt: Date | null; maxAttempts: number | null; jobKey: string | null; queueName: string | null },
): Promise<string> {
  const row = await runOne<{ id: string }>(db, Q.job_enqueue, [
    job.task,
    job.payload as Record<string, unknown>,
    job.runAt,
    job.maxAttempts,
    job.jobKey,
    job.queueName,
  ]);
  return row!.id;
}

/** Jobs of one task in one statement (`""`: no key, no queue); resolves to how many were added or replaced. */
export async function insertJobs(
  db: Db,
  jobs: { task: string; payloads: unknown[]; jobKeys: string[]; maxAttempts: number | null; queueNames: string[] },
): Promise<number> {
  const row = await runOne<{ queued: number }>(db, Q.job_enqueue_many, [
    jobs.task,
    JSON.stringify(jobs.payloads),
    jobs.jobKeys,
    jobs.maxAttempts,
    jobs.queueNames,
  ]);
  return row!.queued;
}

/** Records the workers `ids` of `runnerId` as alive now. */
export async function recordHeartbeat(sql: Sql, ids: readonly string[], runnerId: string): Promise<void> {
  await run(sql, Q.job_worker_heartbeat_upsert, [[...ids], runnerId]);
}

/** Forgets the workers of `runnerId` (a clean stop). */
export async function forgetHeartbeat(sql: Sql, runnerId: string): Promise<void> {
  await run(sql, Q.job_worker_heartbeat_delete, [runnerId]);
}

/** Unlocks the jobs of dead workers; resolves to the worker ids whose jobs were unlocked. */
export async function unlockStaleWorkers(db: Db, staleMs: number): Promise<string[]> {
  const row = await runOne<{ worker_ids: string[] }>(db, Q.job_unlock_stale_workers, [Math.round(staleMs)]);
  return row?.worker_ids ?? [];
}
