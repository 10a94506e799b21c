/**
 * Completing an activation from its landed chain operation (the request that made it, a retry with the same
 * reference, or the reconciliation job: whoever locks the INCOMPLETE row first; the others find it done), or
 * ending one the chain refused. Each is one transaction with its audit entry and webhook.
 */
import type { AutopayParties, ChainOperation, SubscriptionRefusal } from "../../../chains/subscription-types";
import { lockTransaction } from "../../transaction-claims/repo";
import { findToken } from "../../../lib/networks";
import { newId } from "../../../lib/ids";
import { recordAudit } from "../../audit/repo";
import { releaseRedemption } from "../../catalog/coupons/redeem";
import { publishCompanyChanged } from "../../changes/publish";
import { issueInvoice, voidInvoice } from "../../invoices/lifecycle/transitions";
import { emitEvent } from "../../webhooks/emit";
import { invoiceContext, type SubscriptionDeps, type TxContext, type ServiceContext } from "../context";
import type { ChargeRow, SubscriptionRow } from "../rows";
import { presentSubscription } from "../present";
import { recordPull } from "../mandates/pull";
import { completeCharge, findPendingCharge, insertMandate, lockSubscription, saveSubscription, setCompanyPlanAnchored } from "../repo";

/** What the chain said of the payer's autopay: the lifetime cap left before the pull, and when pulls stop. */
export interface MandateFacts {
  before: bigint;
  expiresAt: number | null;
}

/**
 * The facts read after the pull landed (the reconciliation job; a retry whose first attempt's pull may have landed
 * before this attempt read anything): the cap left before it is what is left now plus what it took.
 */
export async function mandateFactsAfter(
  deps: SubscriptionDeps,
  parties: AutopayParties,
  op: ChainOperation,
): Promise<MandateFacts | SubscriptionRefusal> {
  // EVM reads the subscription's own authorization; Solana and Stellar their one allowance per account.
  const autopay = await deps.pool.subscription({ op: "readAutopay", request: { ...parties, tokenId: op.tokenId } });
  return autopay.ok ? { before: autopay.remaining + op.amount, expiresAt: autopay.expiresAt } : autopay;
}

export async function finalizeActivation(
  { deps, tenant, actor, now }: ServiceContext,
  subscriptionId: string,
  op: ChainOperation,
  facts: MandateFacts,
): Promise<SubscriptionRow> {
  const done = await deps.sql.begin(async (tx) => {
    const c: TxContext = { deps, tx, tenant, actor, now };
    const sub = (await lockSubscription(tx, tenant, subscriptionId))!;
    if (sub.status !== "INCOMPLETE") return sub; // finished by another request or the reconciliation job
    const charge = (await findPendingCharge(tx, tenant, sub.id))!;
    // The transaction's claim before the invoice's lock, as every payment writer takes them (mandates/pull.ts).
    if (op.amount > 0n) await lockTransaction(tx, sub.network, op.txHash);
    if (charge.invoice_id) await issueInvoice(invoiceContext(c), charge.invoice_id);
    const mandate = await insertMandate(
      tx,
      tenant,
      {
        id: newId("mnd"),
        subscriptionId: sub.id,
        companyId: sub.company_id,
        network: sub.network,
        tokenSymbol: sub.token_symbol,
        payerWallet: sub.payment_account,
        recipientWallet: sub.payee_wallet,
        authorized: facts.before,
        remaining: facts.before,
        expiresAt: facts.expiresAt === null ? null : new Date(facts.expiresAt * 1000),
      },
      now,
    );
    const token = findToken(deps.chains.get(sub.network)!, sub.token_symbol)!;
    const paymentId = await recordPull(c, sub, { invoiceId: charge.invoice_id, op, decimals: token.decimals, mandate });
    await completeCharge(tx, tenant, charge.id, { end: { status: "succeeded", txHash: op.txHash, paymentId }, now });
    const active = await saveSubscription(
      tx,
      tenant,
      {
        ...sub,
        status: sub.trial_end ? "TRIALING" : "ACTIVE",
        token_id: op.tokenId,
        activation_tx_hash: op.txHash,
        next_attempt_at: sub.current_period_end,
      },
      now,
    );
    await setCompanyPlanAnchored(tx, tenant, sub.company_id, { planId: sub.plan_id, anchor: sub.anchor_at });
    await publishCompanyChanged(tx, tenant, sub.company_id);
    await emitEvent({ tx, tenant }, "subscription.activated", { lazy: () => presentSubscription(active, mandate) }, { at: now });
    await audit(c, "subscription.activate", active, { txHash: op.txHash, tokenId: op.tokenId, mandateId: mandate.id });
    return active;
  });
  deps.companyChanged?.(tenant, done.company_id);
  return done;
}

/** The chain refused the activation: nothing moved. The draft is voided, the coupon released, the reservation ended. */
export async function expireActivation(
  { deps, tenant, actor, now }: ServiceContext,
  subscriptionId: string,
  refusal: SubscriptionRefusal,
): Promise<void> {
  await deps.sql.begin(async (tx) => {
    const c: TxContext = { deps, tx, tenant, actor, now };
    const sub = (await lockSubscription(tx, tenant, subscriptionId))!;
    if (sub.status !== "INCOMPLETE") return;
    const charge: ChargeRow | undefined = await findPendingCharge(tx, tenant, sub.id);
    if (charge) {
      await completeCharge(tx, tenant, charge.id, { end: { status: "failed", reason: refusal.reason, detail: refusal.detail }, now });
      if (charge.invoice_id) await voidInvoice(invoiceContext(c), charge.invoice_id);
    }
    if (sub.coupon_redemption_id) await releaseRedemption(tx, tenant, sub.coupon_redemption_id, now);
    const ended = await saveSubscription(tx, tenant, { ...sub, status: "INCOMPLETE_EXPIRED", next_attempt_at: null }, now);
    await audit(c, "subscription.activation_failed", ended, { reason: refusal.reason });
  });
}

/** The audit entry, written last (the audit chain's lock is the last any transaction takes). */
export const audit = (c: TxContext, action: string, sub: SubscriptionRow, details: Record<string, unknown>) =>
  recordAudit(c.tx, {
    ...c.tenant,
    actor: c.actor,
    action,
    resourceType: "subscription",
    resourceId: sub.id,
    details: { status: sub.status, planId: sub.plan_id, ...details },
  });
