/**
 * Recovery of dispatches whose send outcome is unknown (a timeout, a worker that died, an instance that stopped
 * between claim and settle): once a dispatch has been pending longer than any send can take, its reference is
 * looked up on chain. Found: `confirmed` with that transaction. Not found: `failed` with `not_sent` (the mandate
 * gets its amount back) only once the chain shows the send can no longer land: nothing was recorded before a
 * broadcast (so nothing was broadcast), or the operator's mined nonce has passed the recorded one (EVM), or the chain
 * has passed the recorded blockhash's last valid height (Solana). Until then it stays pending: a node behind a load
 * balancer may hold a transaction the one asked has not seen. A send is never repeated: the configuration stays
 * disarmed until a tick sees the balance at or above its threshold again (docs/agents.md#recovery).
 */
import { findToken } from "../../lib/networks";
import { settle, sendRequest, type DispatchDeps } from "./dispatch";
import { listStaleDispatches } from "./repo";

const BATCH = 100;

export async function recoverDispatches(
  deps: DispatchDeps,
  pendingLongerThanMs: number,
): Promise<{ confirmed: number; failed: number; unknown: number }> {
  const counts = { confirmed: 0, failed: 0, unknown: 0 };
  const stale = await listStaleDispatches(deps.sql, new Date(deps.now().getTime() - pendingLongerThanMs), BATCH);
  for (const row of stale) {
    const network = deps.chains.get(row.network);
    const token = network && findToken(network, row.token_symbol);
    if (!network || !token || !row.funding_wallet) {
      counts.unknown++;
      continue;
    }
    const found = await deps.pool.topup({ op: "lookup", request: sendRequest({ network, token }, row) });
    if (!found.ok || (found.landed === null && found.inFlight)) {
      counts.unknown++;
      continue;
    }
    const settled = await settle(
      deps,
      row,
      found.landed ?? {
        ok: false,
        reason: "not_sent",
        detail: "The send's outcome was lost and the chain holds no transaction for it; nothing moved",
      },
    );
    if (settled?.status === "confirmed") counts.confirmed++;
    else if (settled) counts.failed++;
  }
  return counts;
}
