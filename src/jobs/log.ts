/**
 * graphile-worker's log lines through our logger. Only the message and the job's coordinates (task, job
 * id, worker id) are kept: graphile's metadata can hold whole jobs, payloads included, which must not
 * reach the logs. Its per-job "completed" lines are at its info level: ours at debug.
 */
import { Logger as GraphileLogger } from "graphile-worker";
import type { Logger } from "../lib/logger";

const LEVEL = { error: "error", warning: "warn", info: "debug", debug: "debug" } as const;

export function graphileLogger(logger: Logger): GraphileLogger {
  return new GraphileLogger((scope) => (level, message) => {
    const ours = LEVEL[level as keyof typeof LEVEL] ?? "debug";
    if (!logger.enabled(ours)) return;
    logger.log(ours, `jobs: ${message}`, {
      ...(scope.taskIdentifier ? { task: scope.taskIdentifier } : {}),
      ...(scope.jobId ? { jobId: scope.jobId } : {}),
      ...(scope.workerId ? { workerId: scope.workerId } : {}),
    });
  });
}
