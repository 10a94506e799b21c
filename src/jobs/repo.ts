/**
 * Crash recovery. graphile-worker leaves a job taken by a process that died (kill -9, a lost machine)
 * locked for 4 hours. Runners write heartbeats (src/jobs/heartbeat.ts); this unlocks, at once, the jobs
 * locked longer than `staleMs` by workers whose heartbeat is older than `staleMs`, so another runner
 * takes them. Run at each runner's start and by the `jobs.recover_stale` schedule. A live worker whose
 * job runs longer than `staleMs` keeps it: its heartbeat is fresh.
 */
import type { Db } from "../db/queries";
import { queries, runOne } from "../db/queries";

const Q = queries(["job_unlock_stale_workers"]);

/** Unlocks the jobs of dead workers; resolves to the worker ids whose jobs were unlocked. */
export async function unlockStaleWorkers(db: Db, staleMs: number): Promise<string[]> {
  const row = await runOne<{ worker_ids: string[] }>(db, Q.job_unlock_stale_workers, [Math.round(staleMs)]);
  return row?.worker_ids ?? [];
}
