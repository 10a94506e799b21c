/**
 * x402.reconcile (each minute; docs/operations/jobs.md): completes from the chain the claims whose settlement's
 * outcome was lost and that no retry completed (docs/x402.md#idempotency). Each claim past its lease is re-leased to
 * the job and looked up with what the claim stored (payer, payee, value, nonce): the transaction where that
 * authorization's own Transfer landed is granted to the claim's company, for the claim's credits; an authorization
 * that expired unspent is failed. One unspent and still valid is left to the request's retry (only it holds the
 * signature to send it again) until it expires; one spent without such a Transfer is left to an operator.
 */
import type { ChainPool } from "../../chains/pool";
import type { Sql } from "../../db/client";
import type { ChainRegistry } from "../../lib/networks";
import type { Tenant } from "../../lib/tenant";
import { fromChain, transferOf } from "./settle";
import { claimStalePayments } from "./repo";

const BATCH = 100;
const ACTOR = { kind: "system", id: "x402.reconcile", requestId: null };

export interface ReconcileDeps {
  sql: Sql;
  pool: ChainPool;
  chains: ChainRegistry;
  companyChanged?: (tenant: Tenant, companyId: string) => void;
}

/** One pass over the claims unfinished a lease ago; resolves to how many were settled, failed and left claimed. */
export async function reconcilePayments(deps: ReconcileDeps, p: { now: Date; leaseMs: number }) {
  const counts = { settled: 0, failed: 0, left: 0 };
  const settleDeps = { sql: deps.sql, pool: deps.pool, registry: deps.chains, leaseMs: p.leaseMs };
  const stale = await claimStalePayments(deps.sql, { cutoff: new Date(p.now.getTime() - p.leaseMs), now: p.now, limit: BATCH });
  for (const row of stale) {
    // The lookup reads logs and state only: no signature is needed, and the window starts at 0.
    const transfer = transferOf(deps.chains, row, { validAfter: "0", signature: "0x" });
    const done = transfer ? await fromChain(settleDeps, row, { actor: ACTOR, now: p.now }, transfer) : null;
    if (done !== null && done !== "unsent" && done.ok) {
      deps.companyChanged?.({ teamId: row.team_id, environment: row.environment as Tenant["environment"] }, row.company_id);
      counts.settled++;
    } else if (done !== null && done !== "unsent" && done.reason !== "settlement_pending") counts.failed++;
    else counts.left++;
  }
  return counts;
}
