/**
 * The monitor as the job queue runs it (src/tasks.ts): each minute `agents.topup_monitor` queues one
 * `agents.topup_tick` per network that has enabled configurations (job key `topup-tick:<network>`: at most one
 * waiting per network), so a slow endpoint holds up no other network; `agents.topup_recover` settles lost sends.
 */
import { enqueueJobs } from "../../jobs/enqueue";
import type { Db } from "../../db/queries";
import { listMonitoredNetworks } from "./repo";

export async function queueTopupTicks(db: Db): Promise<number> {
  const networks = await listMonitoredNetworks(db);
  return enqueueJobs(
    db,
    "agents.topup_tick",
    networks.map((network) => ({ payload: { network }, jobKey: `topup-tick:${network}` })),
    { maxAttempts: 1 },
  );
}
