/**
 * A runner's heartbeat: every `intervalMs` it records the graphile worker ids it owns (as graphile-worker
 * writes them in a job's locked_by) as alive. On a clean stop the rows go, after the runner has finished
 * or returned its jobs. A process killed with -9 stops writing, and the recovery in src/jobs/repo.ts notices.
 */
import type { Sql } from "../db/client";
import { forgetHeartbeat, recordHeartbeat } from "./repo";

export interface Heartbeat {
  /** a worker id to record from now on (written at the next beat) */
  add(workerId: string): void;
  /** one beat now */
  beat(): Promise<void>;
  /** stops beating and forgets this runner's workers */
  stop(): Promise<void>;
}

export function startHeartbeat(sql: Sql, runnerId: string, intervalMs: number, onError: (error: unknown) => void): Heartbeat {
  const ids = new Set<string>();
  let beating: Promise<void> | null = null;
  const beat = async () => {
    if (ids.size > 0) await recordHeartbeat(sql, [...ids], runnerId);
  };
  const timer = setInterval(() => {
    if (beating) return;
    beating = beat()
      .catch(onError)
      .finally(() => (beating = null));
  }, intervalMs);
  return {
    add: (workerId) => void ids.add(workerId),
    beat,
    async stop() {
      clearInterval(timer);
      await beating;
      await forgetHeartbeat(sql, runnerId);
    },
  };
}
