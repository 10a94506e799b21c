/** The one statement of the change channel: NOTIFY inside the caller's transaction (sql/queries/entitlement_change_notify). */
import { queries, run, type Db } from "../../db/queries";

const Q = queries(["entitlement_change_notify"]);

/** Sends `payload` on the change channel; delivered at the commit of `db`'s transaction. */
export async function notifyChange(db: Db, payload: string): Promise<void> {
  await run(db, Q.entitlement_change_notify, [payload]);
}
