/**
 * What a renewal's chain operation ended in, recorded in one transaction: the renewal job's own answer, or
 * the reconciliation job's look-up of a lost one. Whoever completes the pending row first records it; the
 * other finds it no longer pending and changes nothing.
 *  - landed: payment applied (invoice PAID), mandate lowered, ACTIVE, next renewal at the period's end,
 *    `subscription.renewed`;
 *  - refused: the attempt fails; PAST_DUE with the next dunning retry (`subscription.past_due`), or CANCELED
 *    after the last one. The invoice stays open (the overdue job marks it OVERDUE after its due date).
 */
import type { ChainOperation } from "../../../chains/subscription-types";
import { lockTransaction } from "../../transaction-claims/repo";
import { findToken } from "../../../lib/networks";
import { emitEvent } from "../../webhooks/emit";
import { cancelNow } from "../cancellation/cancel";
import type { TxContext, ServiceContext } from "../context";
import { nextDunningStep } from "./dunning";
import { audit } from "../activation/finalize";
import type { ChargeRow, SubscriptionRow } from "../rows";
import { presentSubscription } from "../present";
import { recordPull } from "../mandates/pull";
import { completeCharge, lockMandateOf, lockSubscription, saveSubscription, setChargePayment, subscriptionSettings } from "../repo";

export type RenewalOutcome = "renewed" | "past_due" | "canceled" | "pending" | "skipped";

export async function recordLanded({ deps, tenant, actor, now }: ServiceContext, charge: ChargeRow, op: ChainOperation) {
  return deps.sql.begin(async (tx): Promise<RenewalOutcome> => {
    const c: TxContext = { deps, tx, tenant, actor, now };
    const sub = (await lockSubscription(tx, tenant, charge.subscription_id))!;
    if (op.amount > 0n) await lockTransaction(tx, sub.network, op.txHash);
    const completed = await completeCharge(tx, tenant, charge.id, { end: { status: "succeeded", txHash: op.txHash, paymentId: null }, now });
    if (!completed) return "skipped"; // recorded by the other finisher
    const mandate = await lockMandateOf(tx, tenant, sub.id);
    const token = findToken(deps.chains.get(sub.network)!, sub.token_symbol)!;
    const paymentId = await recordPull(c, sub, { invoiceId: charge.invoice_id, op, decimals: token.decimals, mandate: mandate ?? null });
    if (paymentId) await setChargePayment(tx, tenant, charge.id, paymentId);
    await markRenewed(c, sub, { txHash: op.txHash });
    return "renewed";
  });
}

/** The period is paid: ACTIVE, dunning cleared, next renewal at the period's end. */
export async function markRenewed(c: TxContext, sub: SubscriptionRow, details: Record<string, unknown>): Promise<SubscriptionRow> {
  const renewed = await saveSubscription(
    c.tx,
    c.tenant,
    { ...sub, status: "ACTIVE", dunning_attempts: 0, next_attempt_at: sub.current_period_end },
    c.now,
  );
  await emitEvent(c, "subscription.renewed", { lazy: () => presentSubscription(renewed) }, { at: c.now });
  await audit(c, "subscription.renew", renewed, { periodStart: sub.current_period_start.toISOString(), ...details });
  return renewed;
}

export async function recordRefused({ deps, tenant, actor, now }: ServiceContext, charge: ChargeRow, refusal: { reason: string; detail: string }) {
  return deps.sql.begin(async (tx): Promise<RenewalOutcome> => {
    const c: TxContext = { deps, tx, tenant, actor, now };
    const sub = (await lockSubscription(tx, tenant, charge.subscription_id))!;
    const completed = await completeCharge(tx, tenant, charge.id, { end: { status: "failed", reason: refusal.reason, detail: refusal.detail }, now });
    if (!completed) return "skipped";
    return refusal.reason === "not_configured" ? deferRenewal(c, sub, refusal) : failAttempt(c, sub, refusal);
  });
}

/** How long a renewal waits when our side could not charge (the operator has no key or no gas). */
export const DEFER_RENEWAL_MS = 60 * 60_000;

/**
 * The service could not charge (subscriptions_not_configured: no operator key, no gas): not the payer's
 * failure, so the subscription keeps its status and dunning count and the renewal is tried again in an hour
 * under a new reference; the operator sees it in the audit log (and the operation's failure on the dashboard).
 */
async function deferRenewal(c: TxContext, sub: SubscriptionRow, refusal: { reason: string; detail: string }): Promise<RenewalOutcome> {
  const retryAt = new Date(c.now.getTime() + DEFER_RENEWAL_MS);
  const deferred = await saveSubscription(c.tx, c.tenant, { ...sub, next_attempt_at: retryAt }, c.now);
  await audit(c, "subscription.renewal_deferred", deferred, { reason: refusal.reason, detail: refusal.detail, nextAttemptAt: retryAt.toISOString() });
  return "pending";
}

/** One more failed attempt at the current period: the next dunning retry, or the end. */
export async function failAttempt(c: TxContext, sub: SubscriptionRow, refusal: { reason: string; detail: string }): Promise<RenewalOutcome> {
  const failures = sub.dunning_attempts + 1;
  const settings = await subscriptionSettings(c.tx, c.tenant);
  const step = nextDunningStep(failures, settings.dunningRetryHours, sub.current_period_start, c.now);
  if (step.kind === "cancel") {
    await cancelNow(c, { ...sub, dunning_attempts: failures }, `payment failed: ${refusal.reason}`);
    return "canceled";
  }
  const pastDue = await saveSubscription(c.tx, c.tenant, { ...sub, status: "PAST_DUE", dunning_attempts: failures, next_attempt_at: step.at }, c.now);
  await emitEvent(
    c,
    "subscription.past_due",
    { lazy: () => ({ ...presentSubscription(pastDue), failure: { reason: refusal.reason, detail: refusal.detail } }) },
    { at: c.now },
  );
  await audit(c, "subscription.past_due", pastDue, { attempt: failures, reason: refusal.reason, nextAttemptAt: step.at.toISOString() });
  return "past_due";
}
