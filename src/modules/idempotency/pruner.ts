/**
 * Deletes expired idempotency keys on an interval, from each instance (a delete of nothing is cheap, and
 * instances pruning at once only share the work). A stand-in until the job queue arrives (a later issue),
 * when this becomes a scheduled job. Expired rows are never replayed meanwhile: the claim takes them over.
 */
import type { Sql } from "../../db/client";
import type { Clock } from "../../lib/clock";
import type { Logger } from "../../lib/logger";
import { startIntervalTask } from "../../lib/interval-task";
import { pruneExpiredKeys } from "./repo";

export const PRUNE_INTERVAL_MS = 10 * 60 * 1000;

export const startKeyPruner = (sql: Sql, clock: Clock, logger: Logger, intervalMs = PRUNE_INTERVAL_MS) =>
  startIntervalTask(
    intervalMs,
    () => pruneExpiredKeys(sql, clock.now()),
    (error) => logger.warn("idempotency key prune failed", { error: error instanceof Error ? error.message : String(error) }),
  );
