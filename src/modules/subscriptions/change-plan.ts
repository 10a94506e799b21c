/**
 * POST /companies/plan and the dashboard's plan change (BILLING.md "Plan change"): quote (change-quote.ts),
 * then one of four ways, each ending in one transaction that re-quotes on the locked subscription at the
 * same `now` (so a renewal or another change in between is seen, never double-counted):
 *  - at period end (`effective: "period_end"`): the change is scheduled (replacing any scheduled one, its
 *    coupon given back; the same one again redeems nothing more); the renewal applies it. The current terms
 *    asked again undo a scheduled change;
 *  - nothing to pay now (net <= 0, or the credit balance covers it): the terms switch, a credit goes to the
 *    company's credit balance, an invoice covered by the balance is issued PAID;
 *  - paid by `txHash`: the transfer is verified (worker pool, outside any transaction) from the subscription's
 *    payment account to the team's settlement wallet for at least the invoice's total, then the invoice is
 *    issued and paid by it and the terms switch, all at once; a transfer not final yet is 409
 *    payment_not_final, nothing written;
 *  - pulled through the mandate: the invoice (a draft) and the pending chain operation (its reference, the
 *    terms it pays for) are committed first, the pull runs, then change-outcome.ts applies it or voids the
 *    draft (the change did not happen). An unknown outcome is finished by the reconciliation job.
 */
import { OUTCOME_UNKNOWN } from "../../chains/subscription-types";
import { findToken } from "../../chains/registry";
import { refuse, RETRYABLE_REASONS, type ChainFamily, type PaymentVerdict } from "../../chains/types";
import { NOT_FINAL_RETRY_AFTER_SECONDS } from "../invoices/refund-proof";
import { HASH_FORMAT, normalizeTxHash, sameAddress } from "../../chains/addresses";
import { apiError } from "../../lib/errors";
import { newId } from "../../lib/ids";
import { microToTokenCeil } from "../../lib/money";
import type { Tenant } from "../../lib/tenant";
import type { Actor } from "../audit/repo";
import { addBalanceEntry } from "../invoices/credit-notes-repo";
import { createInvoice } from "../invoices/lifecycle";
import { recordProvenPayment } from "../invoices/proofs";
import { refusalCode } from "../payments/refusals";
import { paymentsOfTransaction } from "../payments/repo";
import { lockTransaction, transactionUse } from "../../chains/claims";
import { findCompanyByKeys } from "../customers/repo";
import { chainError } from "./chain-errors";
import {
  alreadyScheduled,
  applyScheduled,
  applyTerms,
  pendingChangeOf,
  recordChangeLanded,
  recordChangeRefused,
  releaseScheduledCoupon,
  unschedule,
} from "./change-outcome";
import { quotePlanChange, type PlanChangeRequest, type Quote } from "./change-quote";
import type { PlanChange } from "./proration";
import { invoiceContext, type SubscriptionDeps, type TxContext } from "./context";
import type { SubscriptionRow } from "./model";
import { chainReference, periodKey } from "./reference";
import { countCharges, findPendingCharge, insertCharge, lockMandateOf, lockSubscription } from "./repo";
import { redeemCoupon } from "../catalog/redeem";

export interface PlanChangeCommand extends PlanChangeRequest {
  txHash: string | null;
  customerName: string | null;
  customerEmail: string | null;
}

export interface PlanChangeResult {
  success: true;
  planId: string;
  status: string;
  currentPeriodEnd: string;
  effective: "now" | "period_end";
  /** the proration invoice, or null (nothing to pay now, or a change at period end) */
  invoiceId: string | null;
}

export async function changePlan(
  deps: SubscriptionDeps,
  tenant: Tenant,
  actor: Actor,
  companyId: string,
  command: PlanChangeCommand,
  now: Date,
): Promise<PlanChangeResult> {
  const quote = await quotePlanChange(deps.sql, tenant, companyId, command, now);
  const { change, sub } = quote;
  const payable = change.invoice && change.invoice.total > 0n ? change.invoice.total : 0n;
  if (command.txHash && (!change.changed || payable === 0n || change.effective === "period_end"))
    throw apiError("validation_failed", "Validation failed", {
      "body.txHash":
        "Nothing is owed now for this change (no change, a change at period end, a credit, or the credit balance covers it): send it without txHash",
    });
  if (!change.changed) return sub.scheduled_plan_id ? keepTerms(deps, tenant, actor, companyId, command, quote, now) : resultOf(sub, null, "now");
  if (payable === 0n || change.effective === "period_end") {
    return deps.sql.begin(async (tx) => {
      const c: TxContext = { deps, tx, tenant, actor, now };
      const { locked, again } = await requote(c, companyId, command, quote);
      if (again.change.effective === "period_end") {
        // A retry of the change already scheduled redeems nothing more; another one replaces it.
        if (alreadyScheduled(locked, again)) return resultOf(locked, null, "period_end");
        await releaseScheduledCoupon(c, locked);
        return resultOf(await applyScheduled(c, locked, again, await redeem(c, locked, again)), null, "period_end");
      }
      await releaseScheduledCoupon(c, locked);
      const redemptionId = await redeem(c, locked, again);
      const invoiceId = again.change.invoice ? (await issueChangeInvoice(c, locked, again, command, true)).id : null;
      const paid = { invoiceId, creditToBalance: again.change.creditToBalance };
      const applied = await applyTerms(c, locked, pendingChangeOf(again, redemptionId), paid);
      return resultOf(applied, invoiceId, "now");
    });
  }
  const token = findToken(deps.chains.get(sub.network)!, sub.token_symbol)!;
  const amount = microToTokenCeil(payable, token.decimals);
  if (!amount.ok) throw apiError("plan_change_not_allowed", `The proration cannot be paid in ${sub.token_symbol}: ${amount.expected}`);
  if (command.txHash) return paidByTransfer(deps, tenant, actor, companyId, command, quote, amount.value, now);
  return pulledThroughMandate(deps, tenant, actor, companyId, command, quote, amount.value, now);
}

/** The company asks for the terms it has while a change is scheduled: the scheduled change is undone. */
const keepTerms = (deps: SubscriptionDeps, tenant: Tenant, actor: Actor, companyId: string, command: PlanChangeCommand, quote: Quote, now: Date) =>
  deps.sql.begin(async (tx) => {
    const c: TxContext = { deps, tx, tenant, actor, now };
    const { locked } = await requote(c, companyId, command, quote);
    return resultOf(locked.scheduled_plan_id ? await unschedule(c, locked) : locked, null, "now");
  });

const resultOf = (sub: SubscriptionRow, invoiceId: string | null, effective: "now" | "period_end"): PlanChangeResult => ({
  success: true,
  planId: effective === "now" ? sub.plan_id : sub.scheduled_plan_id!,
  status: sub.status,
  currentPeriodEnd: sub.current_period_end.toISOString(),
  effective,
  invoiceId,
});

/**
 * The quote again, on the locked row at the same `now`: what gets written. Locks in the order every
 * subscription transaction takes them, each row before the audit chain's lock (taken by the first audit entry
 * and held to commit, so a row locked after it could close a cycle with a transaction that locked that row and
 * then audits): the subscription, the transfer's hash (a change paid by `txHash`), the company (its plan is set),
 * then the mandate, coupon, invoice, counter and audit. A pending chain operation (a renewal or another change in
 * flight) is a 409 with Retry-After; a quote that is not the one prepared (a renewal ran, the balance moved, the
 * same change was made meanwhile) is a 409: what is written, and what a transfer or pull pays, is what was quoted.
 */
async function requote(c: TxContext, companyId: string, command: PlanChangeCommand, quoted: Quote, transfer?: { network: string; txHash: string }) {
  const locked = (await lockSubscription(c.tx, c.tenant, quoted.sub.id))!;
  if (transfer) await lockTransaction(c.tx, transfer.network, transfer.txHash);
  await findCompanyByKeys(c.tx, c.tenant, locked.company_id, null, null);
  // Quoted first: a renewal that started the next period meanwhile (its pull maybe still in flight) makes this
  // change's `now` fall outside the period, which no retry changes.
  const again = await quotePlanChange(c.tx, c.tenant, companyId, command, c.now, locked);
  if (await findPendingCharge(c.tx, c.tenant, locked.id))
    throw apiError("operation_in_progress", "A chain operation of this subscription is in flight; retry shortly", undefined, { "Retry-After": "30" });
  if (moved(quoted.change, again.change))
    throw apiError("plan_change_not_allowed", "The subscription changed while the change was prepared; preview it again");
  return { locked, again };
}

const moved = (a: PlanChange, b: PlanChange): boolean =>
  a.changed !== b.changed ||
  a.effective !== b.effective ||
  (a.invoice?.total ?? 0n) !== (b.invoice?.total ?? 0n) ||
  a.creditToBalance !== b.creditToBalance;

const redeem = async (c: TxContext, sub: SubscriptionRow, q: Quote) =>
  q.coupon ? (await redeemCoupon(c.tx, c.tenant, { code: q.coupon.code, companyId: sub.company_id, planId: q.target.planId }, c.now)).id : null;

/** The change's invoice: its lines, then the credit balance drawn (the ledger entry written with it). */
async function issueChangeInvoice(c: TxContext, sub: SubscriptionRow, q: Quote, command: PlanChangeCommand, issue: boolean) {
  const invoice = q.change.invoice!;
  const created = await createInvoice(
    invoiceContext(c),
    {
      currency: sub.currency,
      network: sub.network,
      companyId: sub.company_id,
      customerName: command.customerName,
      customerEmail: command.customerEmail ?? sub.subscriber_email,
      customerWallet: sub.payment_account,
      planId: q.target.planId,
      lines: invoice.lines,
      metadata: { subscriptionId: sub.id, planChange: q.change.kind },
    },
    { issue },
  );
  if (invoice.balanceApplied > 0n)
    await addBalanceEntry(
      c.tx,
      c.tenant,
      {
        companyId: sub.company_id,
        currency: sub.currency,
        amount: -invoice.balanceApplied,
        reason: `Applied to ${created.number ?? created.id}`,
        invoiceId: created.id,
      },
      c.now,
    );
  return created;
}

async function paidByTransfer(
  deps: SubscriptionDeps,
  tenant: Tenant,
  actor: Actor,
  companyId: string,
  command: PlanChangeCommand,
  quote: Quote,
  amount: bigint,
  now: Date,
): Promise<PlanChangeResult> {
  const network = deps.chains.get(quote.sub.network)!;
  const token = findToken(network, quote.sub.token_symbol)!;
  const txHash = normalizeTxHash(network.family, command.txHash!);
  if (!txHash) throw apiError("validation_failed", "Validation failed", { "body.txHash": `Expected ${HASH_FORMAT[network.family]}` });
  // A hash that proved anything before is refused before the chain is asked (and again under its lock).
  if ((await paymentsOfTransaction(deps.sql, network.id, txHash)).length > 0 || (await transactionUse(deps.sql, network.id, txHash)))
    throw apiError("payment_replayed", "This transaction already proved a payment or a refund");
  const verdict = fromPaymentAccount(
    await deps.pool.verifyPayment({ network, token, txHash, recipient: quote.sub.payee_wallet, amount }),
    network.family,
    quote.sub.payment_account,
  );
  if (!verdict.ok) {
    if (RETRYABLE_REASONS.has(verdict.reason))
      throw apiError(
        "payment_not_final",
        `The transfer cannot be proven yet (${verdict.reason}: ${verdict.detail}); nothing changed, retry later`,
        undefined,
        { "Retry-After": String(NOT_FINAL_RETRY_AFTER_SECONDS) },
      );
    throw apiError(refusalCode(verdict.reason), verdict.detail);
  }
  return deps.sql.begin(async (tx) => {
    const c: TxContext = { deps, tx, tenant, actor, now };
    const { locked, again } = await requote(c, companyId, command, quote, { network: network.id, txHash });
    await releaseScheduledCoupon(c, locked);
    const redemptionId = await redeem(c, locked, again);
    const invoice = await issueChangeInvoice(c, locked, again, command, true);
    const paid = await recordProvenPayment(c, invoice.id, { network, token, txHash, proof: verdict });
    if (paid.kind !== "paid" || paid.invoice.id !== invoice.id) throw apiError("payment_replayed", "This transaction already proved a payment");
    const applied = await applyTerms(c, locked, pendingChangeOf(again, redemptionId), { invoiceId: invoice.id, creditToBalance: 0n });
    return resultOf(applied, invoice.id, "now");
  });
}

/**
 * Only a transfer from the subscription's payment account pays its change: a plain transfer names no invoice, and
 * the customer's embed token submits the hash, so without this anyone could pass off another payer's transfer to
 * the settlement wallet (seen on chain, not yet proven by its owner) as their own upgrade (as a checkout session
 * with a customerWallet is bound to it, payments/settle.ts).
 */
function fromPaymentAccount(verdict: PaymentVerdict, family: ChainFamily, paymentAccount: string): PaymentVerdict {
  if (!verdict.ok) return verdict;
  const transfers = verdict.transfers.filter((t) => sameAddress(family, t.payer, paymentAccount));
  return transfers.length ? { ...verdict, transfers } : refuse("wrong_payer", "The transfer was not sent from the subscription's payment account");
}

async function pulledThroughMandate(
  deps: SubscriptionDeps,
  tenant: Tenant,
  actor: Actor,
  companyId: string,
  command: PlanChangeCommand,
  quote: Quote,
  amount: bigint,
  now: Date,
): Promise<PlanChangeResult> {
  const charge = await deps.sql.begin(async (tx) => {
    const c: TxContext = { deps, tx, tenant, actor, now };
    const { locked, again } = await requote(c, companyId, command, quote);
    const mandate = await lockMandateOf(tx, tenant, locked.id);
    if (!mandate || mandate.status !== "ACTIVE")
      throw apiError("plan_change_not_allowed", "The subscription has no active mandate to pull the proration through; pay it with txHash");
    if (BigInt(mandate.remaining_amount) < amount)
      throw apiError(
        "insufficient_allowance",
        `The mandate's remaining amount (${mandate.remaining_amount}) does not cover the proration (${amount})`,
      );
    const redemptionId = await redeem(c, locked, again);
    const invoice = await issueChangeInvoice(c, locked, again, command, false);
    const attempt = await countCharges(tx, tenant, locked.id, "proration", locked.current_period_start);
    return (await insertCharge(
      tx,
      tenant,
      {
        id: newId("sch"),
        subscriptionId: locked.id,
        kind: "proration",
        reference: chainReference(tenant, "proration", locked.id, periodKey(locked.current_period_start), String(attempt)),
        network: locked.network,
        periodStart: locked.current_period_start,
        attempt,
        invoiceId: invoice.id,
        amount,
        change: pendingChangeOf(again, redemptionId),
      },
      now,
    ))!;
  });
  const sub = quote.sub;
  const network = deps.chains.get(sub.network)!;
  const op = await deps.pool.subscription({
    op: "charge",
    request: {
      network,
      token: findToken(network, sub.token_symbol)!,
      payer: sub.payment_account,
      payee: sub.payee_wallet,
      tokenId: sub.token_id!,
      amount,
      reference: charge.reference,
    },
  });
  if (op.ok) return resultOf(await recordChangeLanded(deps, tenant, actor, charge, op, now), charge.invoice_id, "now");
  if (!OUTCOME_UNKNOWN.has(op.reason)) await recordChangeRefused(deps, tenant, actor, charge, op, now);
  throw chainError(op);
}
