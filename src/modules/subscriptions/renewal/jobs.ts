/**
 * The renewal scan and the chain-side revoke, as the job queue runs them (src/tasks.ts). The scan queues one
 * `subscriptions.renew` job per due subscription under the job key `renew:<id>`, so a subscription has at
 * most one renewal job waiting however often the scan runs, and the queue's concurrency runs many at once,
 * except where the network's operator sends one transaction at a time (src/chains/operator-lanes.ts).
 * It pages through everything due, a page per statement (bench/README.md "Subscription renewals": one tick of
 * 1,000 jobs queued one statement and commit each took 4-8 s, and a tick queued no more than that, so a backlog
 * of 10,000 due at once took ten ticks, ten minutes).
 */
import { operatorLane } from "../../../chains/operator-lanes";
import { findToken } from "../../../lib/networks";
import { enqueueJobs } from "../../../jobs/enqueue";
import type { Tenant } from "../../../lib/tenant";
import type { SubscriptionDeps } from "../context";
import { chainReference } from "../reference";
import { findSubscription, listDueSubscriptions, type DueSubscription } from "../repo";

const SCAN_PAGE = 1000;

/** Queues a renewal job for every subscription due at `now`; resolves to how many. */
export async function queueDueRenewals(deps: SubscriptionDeps, now: Date): Promise<number> {
  let queued = 0;
  for (let after: DueSubscription | null = null; ; ) {
    const due = await listDueSubscriptions(deps.sql, now, after, SCAN_PAGE);
    const jobs = due.map((s) => ({
      payload: { teamId: s.team_id, environment: s.environment as Tenant["environment"], subscriptionId: s.id },
      jobKey: `renew:${s.id}`,
      queueName: laneOf(deps, s.network),
    }));
    queued += await enqueueJobs(deps.sql, "subscriptions.renew", jobs, { maxAttempts: 5 });
    if (due.length < SCAN_PAGE) return queued;
    after = due.at(-1)!;
  }
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
