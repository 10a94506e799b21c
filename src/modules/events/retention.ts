/**
 * How long a refusal is kept. A refusal's event row is stored only when it carries an idempotency key
 * (meter_settle(): its retries must replay it); it is kept REFUSED_EVENT_RETENTION_MS, after which a retry
 * with that key is decided afresh. Refusals without a key are only counted (usage_refusals), never stored.
 * The prune is a scheduled job (`events.prune_refusals`, hourly, once across instances: src/tasks.ts);
 * deletes are small batches that skip locked rows, so the meter never waits on a prune.
 */
import type { Sql } from "../../db/client";
import { deleteRefusedBefore } from "./repo";
import { DAY_MS } from "../../lib/period";

export const REFUSED_EVENT_RETENTION_MS = 7 * DAY_MS;
const BATCH = 1000;

/** Deletes every stored refusal older than the retention, `batch` rows per statement. Returns how many. */
export const pruneRefusedEvents = (sql: Sql, now: number, batch = BATCH): Promise<number> =>
  deleteRefusedBefore(sql, new Date(now - REFUSED_EVENT_RETENTION_MS), batch);
