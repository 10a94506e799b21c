/**
 * The renewal scan and the chain-side revoke, as the job queue runs them (src/tasks.ts). The scan queues one
 * `subscriptions.renew` job per due subscription under the job key `renew:<id>`, so a subscription has at
 * most one renewal job waiting however often the scan runs, and the queue's concurrency runs many at once,
 * except where the network's operator sends one transaction at a time (src/chains/operator-lanes.ts).
 */
import { operatorLane } from "../../chains/operator-lanes";
import { findToken } from "../../chains/registry";
import { enqueueJob } from "../../jobs/enqueue";
import type { Tenant } from "../../lib/tenant";
import type { SubscriptionDeps } from "./context";
import { chainReference } from "./reference";
import { findSubscription, listDueSubscriptions } from "./repo";

const SCAN_BATCH = 1000;

export async function queueDueRenewals(deps: SubscriptionDeps, now: Date): Promise<number> {
  const due = await listDueSubscriptions(deps.sql, now, SCAN_BATCH);
  for (const s of due)
    await enqueueJob(
      deps.sql,
      "subscriptions.renew",
      { teamId: s.team_id, environment: s.environment as Tenant["environment"], subscriptionId: s.id },
      { jobKey: `renew:${s.id}`, maxAttempts: 5, queueName: laneOf(deps, s.network) },
    );
  return due.length;
}

/** Renewals whose operator pulls one at a time (Stellar) wait in the job queue, not inside the chain worker. */
function laneOf(deps: SubscriptionDeps, networkId: string): string | null {
  const network = deps.chains.get(networkId);
  return network ? operatorLane(network) : null;
}

/** Revokes the subscription's token on chain; a refusal other than "nothing to revoke" throws, so the queue retries it. */
export async function revokeOnChain(deps: SubscriptionDeps, tenant: Tenant, subscriptionId: string): Promise<void> {
  const sub = await findSubscription(deps.sql, tenant, subscriptionId);
  const network = sub && deps.chains.get(sub.network);
  const token = network && findToken(network, sub.token_symbol);
  if (!sub?.token_id || !network || !token) return;
  const result = await deps.pool.subscription({
    op: "revoke",
    request: {
      network,
      token,
      payer: sub.payment_account,
      payee: sub.payee_wallet,
      tokenId: sub.token_id,
      reference: chainReference(tenant, "revoke", sub.id),
    },
  });
  if (!result.ok && result.reason !== "revoked") throw new Error(`on-chain revoke of ${subscriptionId} failed: ${result.reason}`);
}
