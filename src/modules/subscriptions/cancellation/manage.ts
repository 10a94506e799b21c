/**
 * Canceling and resuming, for the dashboard routes, the CLI and a customer's embed token: at the period's
 * end (the default; the renewal job ends it then, and resume undoes it until then) or now (cancel.ts).
 * Only a live subscription (trialing, active, past due) can be canceled or resumed: 409 subscription_not_live
 * otherwise. Resuming one that is not set to cancel changes nothing (and audits nothing).
 */
import { apiError } from "../../../lib/errors";
import { cancelNow, setCancelAtPeriodEnd } from "./cancel";
import type { TxContext, ServiceContext } from "../context";
import { LIVE_STATUSES, type SubscriptionRow } from "../rows";
import { findLiveSubscription, findPendingCharge, lockSubscription } from "../repo";
import { UNKNOWN_RETRY_AFTER_S } from "../chain-errors";

/** What an operator's cancel (dashboard, CLI) records when no reason is given. */
export const OPERATOR_CANCEL_REASON = "canceled by an operator";

export type SubscriptionRef = { subscriptionId: string } | { companyId: string };

async function lockLive(c: TxContext, ref: SubscriptionRef): Promise<SubscriptionRow> {
  const id = "subscriptionId" in ref ? ref.subscriptionId : (await findLiveSubscription(c.tx, c.tenant, ref.companyId))?.id;
  const sub = id ? await lockSubscription(c.tx, c.tenant, id) : undefined;
  if (!sub) throw apiError("not_found", "subscriptionId" in ref ? `No subscription ${ref.subscriptionId}` : "The company has no live subscription");
  if (!LIVE_STATUSES.includes(sub.status) || sub.status === "INCOMPLETE")
    throw apiError("subscription_not_live", `Subscription ${sub.id} is ${sub.status}`);
  return sub;
}

export async function cancelSubscription(
  { deps, tenant, actor, now }: ServiceContext,
  ref: SubscriptionRef,
  how: { atPeriodEnd: boolean; reason: string },
): Promise<SubscriptionRow> {
  const done = await deps.sql.begin(async (tx) => {
    const c: TxContext = { deps, tx, tenant, actor, now };
    const sub = await lockLive(c, ref);
    if (how.atPeriodEnd) return setCancelAtPeriodEnd(c, sub, true, { reason: how.reason });
    // A pull in flight would land on a canceled subscription (its outcome reactivates the row it charged for):
    // ended now only once the chain has answered (the renewal job or the reconciliation job, within minutes).
    if (await findPendingCharge(tx, tenant, sub.id))
      throw apiError(
        "operation_in_progress",
        `A chain operation of subscription ${sub.id} is in flight; cancel again once it has settled`,
        undefined,
        {
          "Retry-After": String(UNKNOWN_RETRY_AFTER_S),
        },
      );
    return (await cancelNow(c, sub, how.reason)).subscription;
  });
  if (!how.atPeriodEnd) deps.companyChanged?.(tenant, done.company_id);
  return done;
}

export async function resumeSubscription({ deps, tenant, actor, now }: ServiceContext, ref: SubscriptionRef): Promise<SubscriptionRow> {
  return deps.sql.begin(async (tx) => {
    const c: TxContext = { deps, tx, tenant, actor, now };
    const sub = await lockLive(c, ref);
    if (!sub.cancel_at_period_end) return sub;
    return setCancelAtPeriodEnd(c, sub, false);
  });
}
