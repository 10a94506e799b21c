/**
 * The overdue sweep (job `invoices.mark_overdue`, every minute): ISSUED invoices whose dueAt has passed
 * become OVERDUE, each in a transaction of its own (its lock, its audit entry, its `invoice.overdue`
 * webhook), so one invoice that fails is logged and skipped, and never holds back the others. The scan uses the
 * partial index invoices_due; an invoice paid or voided meanwhile is skipped under its lock (markOverdue).
 */
import type { Sql } from "../../../db/client";
import type { Logger } from "../../../lib/logger";
import type { Actor } from "../../audit/repo";
import { markOverdue } from "./transitions";
import { listOverdueCandidates } from "../repo";

export const OVERDUE_BATCH = 200;
/** Batches per run: a backlog past this waits for the next tick, so one run stays short. */
export const OVERDUE_MAX_BATCHES = 50;
export const OVERDUE_ACTOR: Actor = { kind: "system", id: "invoices.mark_overdue", requestId: null };

/**
 * Marks every invoice due by `now` OVERDUE (up to the batch bound); resolves to how many it marked and
 * which failed. A failure is logged and skipped for the rest of the run (the next tick tries it again).
 */
export async function markOverdueInvoices(
  sql: Sql,
  logger: Logger,
  now: Date,
  { batch = OVERDUE_BATCH, maxBatches = OVERDUE_MAX_BATCHES }: { batch?: number; maxBatches?: number } = {},
): Promise<{ marked: number; failed: string[] }> {
  let marked = 0;
  const failed: string[] = [];
  for (let round = 0; round < maxBatches; round++) {
    const due = (await listOverdueCandidates(sql, now, batch + failed.length)).filter((c) => !failed.includes(c.id)).slice(0, batch);
    for (const { teamId, environment, id } of due) {
      try {
        if (await sql.begin((tx) => markOverdue({ tx, tenant: { teamId, environment }, actor: OVERDUE_ACTOR, now }, id))) marked++;
      } catch (error) {
        failed.push(id);
        logger.error("marking an invoice overdue failed", { invoiceId: id, teamId, error: error instanceof Error ? error.message : String(error) });
      }
    }
    if (due.length < batch) break;
  }
  return { marked, failed };
}
