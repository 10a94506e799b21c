/** The two ways a plan change that owes something is paid (change.ts): a verified transfer (txHash) or a pull through the mandate. */
import { OUTCOME_UNKNOWN } from "../../../chains/subscription-types";
import { findToken } from "../../../lib/networks";
import { refuse, RETRYABLE_REASONS, type ChainFamily, type PaymentVerdict } from "../../../chains/types";
import { NOT_FINAL_RETRY_AFTER_SECONDS } from "../../invoices/refunds/refund";
import { HASH_FORMAT, normalizeTxHash, sameAddress } from "../../../chains/addresses";
import { apiError } from "../../../lib/errors";
import { newId } from "../../../lib/ids";
import { recordProvenPayment } from "../../invoices/payments/prove";
import { refusalCode } from "../../payments/refusals";
import { paymentsOfTransaction } from "../../payments/repo";
import { transactionUse } from "../../transaction-claims/repo";
import { chainError } from "../chain-errors";
import { pullThroughMandate } from "../mandates/pull";
import { applyTerms, pendingChangeOf, recordChangeLanded, recordChangeRefused, releaseScheduledCoupon } from "./outcome";
import { type Quote } from "./quote";
import { type TxContext, type ServiceContext } from "../context";
import { chainReference, periodKey } from "../reference";
import { countCharges, insertCharge, lockMandateOf } from "../repo";
import { issueChangeInvoice, redeem, requote, resultOf, type ChangeOutcome, type PlanChangeCommand } from "./steps";

export async function paidByTransfer(
  { deps, tenant, actor, now }: ServiceContext,
  { companyId, command, quote, amount }: { companyId: string; command: PlanChangeCommand; quote: Quote; amount: bigint },
): Promise<ChangeOutcome> {
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
    const { locked, again } = await requote(c, { companyId, command, quoted: quote, transfer: { network: network.id, txHash } });
    await releaseScheduledCoupon(c, locked);
    const redemptionId = await redeem(c, locked, again);
    const invoice = await issueChangeInvoice(c, locked, { q: again, command, issue: true });
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

export async function pulledThroughMandate(
  { deps, tenant, actor, now }: ServiceContext,
  { companyId, command, quote, amount }: { companyId: string; command: PlanChangeCommand; quote: Quote; amount: bigint },
): Promise<ChangeOutcome> {
  const charge = await deps.sql.begin(async (tx) => {
    const c: TxContext = { deps, tx, tenant, actor, now };
    const { locked, again } = await requote(c, { companyId, command, quoted: quote });
    const mandate = await lockMandateOf(tx, tenant, locked.id);
    if (!mandate || mandate.status !== "ACTIVE")
      throw apiError("plan_change_not_allowed", "The subscription has no active mandate to pull the proration through; pay it with txHash");
    if (BigInt(mandate.remaining_amount) < amount)
      throw apiError(
        "insufficient_allowance",
        `The mandate's remaining amount (${mandate.remaining_amount}) does not cover the proration (${amount})`,
      );
    const redemptionId = await redeem(c, locked, again);
    const invoice = await issueChangeInvoice(c, locked, { q: again, command, issue: false });
    const attempt = await countCharges(tx, tenant, locked.id, { kind: "proration", periodStart: locked.current_period_start });
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
  const op = await pullThroughMandate(deps, sub, charge);
  if (op.ok) return resultOf(await recordChangeLanded({ deps, tenant, actor, now }, charge, op), charge.invoice_id, "now");
  if (!OUTCOME_UNKNOWN.has(op.reason)) await recordChangeRefused({ deps, tenant, actor, now }, charge, op);
  throw chainError(op);
}
