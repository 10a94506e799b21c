/** Typed access to stored events (sql/queries/event_*): the dashboard's list and the prune of old refusals. */
import { deleteInBatches, queries, run, type Db } from "../../db/queries";
import type { Tenant } from "../../lib/tenant";
import type { EventRow } from "./rows";

const Q = queries(["event_list_page", "event_delete_refused_before"]);

/** One page of the tenant's stored track events, newest first, optionally of one company. */
export const listEventPage = (db: Db, t: Tenant, page: { beforeSeq: bigint | null; fetch: number }, companyId: string | null) =>
  run<EventRow>(db, Q.event_list_page, [t.teamId, t.environment, page.beforeSeq, page.fetch, companyId]);

/** Deletes the stored refusals created before `before`, `batch` rows per statement. Returns how many. */
export const deleteRefusedBefore = (db: Db, before: Date, batch: number) => deleteInBatches(db, Q.event_delete_refused_before, [before], batch);
