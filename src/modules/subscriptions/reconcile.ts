/**
 * The reconciliation job (BILLING.md: the chain is the source of truth): every pending chain operation older
 * than a few minutes lost its answer (a timeout, a crash, the database failing after the chain succeeded).
 * Each is looked up on chain by its reference: landed -> recorded as if answered (an activation finalized,
 * a renewal paid); not found after the grace period -> failed (an activation ends charging nothing, a
 * renewal goes to dunning); the chain unreachable -> left for the next run.
 */
import { findToken } from "../../lib/networks";
import type { Logger } from "../../lib/logger";
import type { Environment, Tenant } from "../../lib/tenant";
import type { Actor } from "../audit/repo";
import type { SubscriptionDeps } from "./context";
import { expireActivation, finalizeActivation, mandateFactsAfter } from "./activation/finalize";
import type { ChargeRow } from "./rows";
import { recordChangeLanded, recordChangeRefused } from "./plan-change/outcome";
import { recordLanded, recordRefused } from "./renewal/outcome";
import { findSubscription, listStaleCharges } from "./repo";

const RECONCILE_ACTOR: Actor = { kind: "system", id: "subscriptions.reconcile", requestId: null };
/** An operation pending this long lost its answer (a chain job times out after CHAIN_JOB_TIMEOUT_MS, 2 min at most). */
export const STALE_AFTER_MS = 3 * 60_000;
/** Not on chain this long after it was sent: it never will be (EVM and Stellar transactions expire well before). */
export const GIVE_UP_AFTER_MS = 30 * 60_000;
const BATCH = 100;

export async function reconcileSubscriptions(
  deps: SubscriptionDeps,
  logger: Logger,
  now: Date,
): Promise<{ landed: number; failed: number; waiting: number }> {
  const counts = { landed: 0, failed: 0, waiting: 0 };
  for (const charge of await listStaleCharges(deps.sql, new Date(now.getTime() - STALE_AFTER_MS), BATCH)) {
    try {
      counts[await reconcileOne(deps, charge, now)]++;
    } catch (error) {
      counts.waiting++;
      logger.warn("subscription reconciliation failed; retried next run", {
        chargeId: charge.id,
        error: error instanceof Error ? error.message : String(error),
      });
    }
  }
  return counts;
}

async function reconcileOne(deps: SubscriptionDeps, charge: ChargeRow, now: Date): Promise<"landed" | "failed" | "waiting"> {
  const tenant: Tenant = { teamId: charge.team_id, environment: charge.environment as Environment };
  const sub = (await findSubscription(deps.sql, tenant, charge.subscription_id))!;
  const network = deps.chains.get(sub.network);
  const token = network && findToken(network, sub.token_symbol);
  if (!network || !token) return "waiting";
  const parties = { network, token, payer: sub.payment_account, payee: sub.payee_wallet };
  const found = await deps.pool.subscription({ op: "lookup", request: { ...parties, reference: charge.reference } });
  if (!found.ok) return "waiting";
  if (found.operation) {
    if (charge.kind === "activation") {
      const facts = await mandateFactsAfter(deps, parties, found.operation);
      if ("ok" in facts) return "waiting";
      await finalizeActivation({ deps, tenant, actor: RECONCILE_ACTOR, now }, sub.id, found.operation, facts);
    } else if (charge.kind === "proration") await recordChangeLanded({ deps, tenant, actor: RECONCILE_ACTOR, now }, charge, found.operation);
    else await recordLanded({ deps, tenant, actor: RECONCILE_ACTOR, now }, charge, found.operation);
    return "landed";
  }
  if (now.getTime() - charge.created_at.getTime() < GIVE_UP_AFTER_MS) return "waiting";
  const refusal = { ok: false as const, reason: "reverted" as const, detail: "The operation never reached the chain" };
  if (charge.kind === "activation") await expireActivation({ deps, tenant, actor: RECONCILE_ACTOR, now }, sub.id, refusal);
  else if (charge.kind === "proration") await recordChangeRefused({ deps, tenant, actor: RECONCILE_ACTOR, now }, charge, refusal);
  else await recordRefused({ deps, tenant, actor: RECONCILE_ACTOR, now }, charge, refusal);
  return "failed";
}
