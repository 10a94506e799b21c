/**
 * Ending a subscription: now (an operator or the customer asks; the last dunning retry failed; a period end
 * with cancel-at-period-end), or at the period's end (a flag the renewal job acts on, undone by resume).
 * A canceled company falls back to the team's fallback plan (subscription settings; none: no plan, only
 * its overrides), its mandate is revoked (pulls stop; the EVM contract's token is revoked on chain after
 * commit by revokeOnChain), and `subscription.canceled` is sent. Nothing is refunded for unused time.
 */
import { enqueueJob } from "../../../jobs/enqueue";
import { publishCompanyChanged } from "../../changes/publish";
import { emitEvent } from "../../webhooks/emit";
import type { TxContext } from "../context";
import { audit } from "../activation/finalize";
import type { MandateRow, SubscriptionRow } from "../rows";
import { presentMandate, presentSubscription } from "../present";
import { endMandate, lockMandateOf, saveSubscription, setCompanyPlanAnchored, subscriptionSettings } from "../repo";

export async function cancelNow(
  c: TxContext,
  sub: SubscriptionRow,
  reason: string,
): Promise<{ subscription: SubscriptionRow; mandate: MandateRow | null }> {
  const canceled = await saveSubscription(
    c.tx,
    c.tenant,
    { ...sub, status: "CANCELED", canceled_at: c.now, cancel_reason: reason, next_attempt_at: null, cancel_at_period_end: false },
    c.now,
  );
  const settings = await subscriptionSettings(c.tx, c.tenant);
  await setCompanyPlanAnchored(c.tx, c.tenant, sub.company_id, { planId: settings.fallbackPlanId, anchor: c.now });
  await publishCompanyChanged(c.tx, c.tenant, sub.company_id);
  const held = await lockMandateOf(c.tx, c.tenant, sub.id);
  const mandate = held?.status === "ACTIVE" ? await revokeMandateRow(c, held, c.actor.id, `Subscription canceled: ${reason}`) : (held ?? null);
  await emitEvent(c, "subscription.canceled", { lazy: () => presentSubscription(canceled, mandate) }, { at: c.now });
  await audit(c, "subscription.cancel", canceled, { reason });
  return { subscription: canceled, mandate };
}

/**
 * ACTIVE -> REVOKED with its webhook, and the chain-side revoke queued in the same transaction (a no-op job
 * on families where only the payer can withdraw an allowance); the caller holds the row locked.
 */
export async function revokeMandateRow(c: TxContext, mandate: MandateRow, by: string, reason: string | null): Promise<MandateRow> {
  const revoked = (await endMandate(c.tx, c.tenant, mandate.id, { end: { status: "REVOKED", by, reason }, now: c.now }))!;
  const job = { teamId: c.tenant.teamId, environment: c.tenant.environment, subscriptionId: mandate.subscription_id };
  await enqueueJob(c.tx, "subscriptions.revoke_onchain", job, { jobKey: `revoke:${mandate.subscription_id}` });
  await emitEvent(c, "mandate.revoked", { lazy: () => presentMandate(revoked) }, { at: c.now });
  return revoked;
}

/** Sets or clears cancel-at-period-end on a live subscription; `details` go into the audit entry (the reason given). */
export async function setCancelAtPeriodEnd(
  c: TxContext,
  sub: SubscriptionRow,
  cancel: boolean,
  details: Record<string, unknown> = {},
): Promise<SubscriptionRow> {
  const saved = await saveSubscription(c.tx, c.tenant, { ...sub, cancel_at_period_end: cancel }, c.now);
  await audit(c, cancel ? "subscription.cancel_scheduled" : "subscription.resume", saved, details);
  return saved;
}
