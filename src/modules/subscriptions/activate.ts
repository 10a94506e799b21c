/**
 * POST /subscriptions/activate (BILLING.md "Subscriptions"): setup -> reserve -> one chain operation ->
 * finalize.
 *  1. setup, reading only: the plan, network, token and payee the on-chain plan id names (terms.ts), the
 *     payer's signed consent to pay that payee where the chain's autopay does not name it (consent.ts: Solana
 *     and Stellar; 400 otherwise), and the payer's autopay as the chain says now (no autopay: 402), all
 *     before anything is written;
 *  2. reserve, one transaction committed BEFORE the chain is asked: the company (upserted), the coupon
 *     redeemed, the subscription INCOMPLETE (one live subscription per company: a racing second activation is
 *     a 409 here, before it can pull anything), the first invoice as a DRAFT, and the pending chain operation
 *     under its reference;
 *  3. the chain operation: pull the first period, mint the subscription token, record the period allowance;
 *  4. finalize (finalize.ts): invoice issued and PAID, mandate ACTIVE, subscription ACTIVE, company on the plan.
 * A payer-side refusal ends the reservation (INCOMPLETE_EXPIRED, draft voided, coupon released): nothing is
 * active, nothing charged. An unknown outcome leaves it INCOMPLETE: a retry with the same Idempotency-Key
 * (same reference) or the reconciliation job completes it from the chain, never charging twice.
 */
import { OUTCOME_UNKNOWN, type AutopayState } from "../../chains/subscription-types";
import { apiError } from "../../lib/errors";
import { newId } from "../../lib/ids";
import { microToTokenCeil } from "../../lib/money";
import type { Tenant } from "../../lib/tenant";
import type { Actor } from "../audit/repo";
import { redeemCoupon } from "../catalog/redeem";
import { upsertCompany } from "../customers/identify";
import type { CompanyRef } from "../customers/model";
import { createInvoice } from "../invoices/lifecycle";
import { periodLines, linesTotal } from "./billing-lines";
import { chainError } from "./chain-errors";
import { assertPayerConsent, type PayerConsent } from "./consent";
import { invoiceContext, type SubscriptionDeps, type TxContext } from "./context";
import { expireActivation, finalizeActivation, mandateFactsAfter } from "./finalize";
import { firstPeriod } from "./first-period";
import type { SubscriptionRow } from "./model";
import { chainReference, periodInvoiceSource } from "./reference";
import { findPendingCharge, findSubscriptionByReference, insertCharge, insertSubscription, subscriptionSettings } from "./repo";
import { activationTerms, type ActivationTerms } from "./terms";
import { windowSeconds } from "./windows";

export interface ActivationRequest {
  /** the on-chain plan id */
  planId: string;
  paymentAccount: string;
  /** already limited to the token's own company for an embed token (the route checks it) */
  company: CompanyRef;
  subscriberEmail: string | null;
  couponCode: string | null;
  /** the payer's signed consent naming the payee (Solana and Stellar) */
  payerConsent: PayerConsent | null;
  idempotencyKey: string | null;
}

export interface ActivationResult {
  tokenId: string;
  txHash: string;
  companyId: string;
  planId: string;
  paymentAccount: string;
}

export async function activateSubscription(
  deps: SubscriptionDeps,
  tenant: Tenant,
  actor: Actor,
  request: ActivationRequest,
  now: Date,
): Promise<ActivationResult> {
  const terms = await activationTerms(deps.sql, deps.chains, tenant, request.planId, request.paymentAccount);
  await assertPayerConsent(
    {
      family: terms.network.family,
      payer: request.paymentAccount,
      payee: terms.payee,
      networkId: terms.network.id,
      tokenSymbol: terms.token.symbol,
      onchainPlanId: request.planId,
      price: terms.price,
      currency: terms.currency,
      billingPeriod: terms.billingPeriod,
    },
    request.payerConsent,
    now,
  );
  const parties = { network: terms.network, token: terms.token, payer: request.paymentAccount, payee: terms.payee };
  const autopay = await deps.pool.subscription({ op: "readAutopay", request: parties });
  if (!autopay.ok) throw chainError(autopay);
  if (!autopay.installed)
    throw apiError(
      "autopay_not_installed",
      `${request.paymentAccount} has no autopay for ${terms.payee} in ${terms.token.symbol} on ${terms.network.id}`,
    );

  const reserved = await deps.sql.begin((tx) => reserve({ deps, tx, tenant, actor, now }, request, terms, autopay));
  const sub = reserved.subscription;
  if (sub.status !== "INCOMPLETE") return resultOf(sub, request);

  const operation = await deps.pool.subscription({
    op: "activate",
    request: { ...parties, amount: reserved.amount, periodSeconds: windowSeconds(sub.billing_period), reference: sub.activation_reference },
  });
  if (operation.ok) {
    // A resumed reservation's pull may have landed before this request read the autopay (its first attempt's answer
    // was lost): the cap before it is then read after it. A fresh one's reference was unused when autopay was read.
    const facts = reserved.resumed ? await mandateFactsAfter(deps, parties, operation) : { before: autopay.remaining, expiresAt: autopay.expiresAt };
    // The pull landed but cannot be recorded yet: an unknown outcome to the client, completed by a retry or the job.
    if ("ok" in facts) throw chainError({ ok: false, reason: "rpc_unavailable", detail: facts.detail });
    const done = await finalizeActivation(deps, tenant, actor, sub.id, operation, facts, now);
    return resultOf(done, request);
  }
  if (!OUTCOME_UNKNOWN.has(operation.reason)) await expireActivation(deps, tenant, actor, sub.id, operation, now);
  throw chainError(operation);
}

const resultOf = (s: SubscriptionRow, r: ActivationRequest): ActivationResult => {
  if (s.status === "INCOMPLETE_EXPIRED")
    throw apiError("activation_failed", "This activation failed and charged nothing; send a new request with a new Idempotency-Key");
  return {
    tokenId: s.token_id ?? "",
    txHash: s.activation_tx_hash ?? "",
    companyId: s.company_id,
    planId: r.planId,
    paymentAccount: s.payment_account,
  };
};

interface Reservation {
  subscription: SubscriptionRow;
  /** token units the activation pulls */
  amount: bigint;
  /** an earlier request's reservation, found by the reference (its pull may have landed already) */
  resumed: boolean;
}

async function reserve(c: TxContext, request: ActivationRequest, terms: ActivationTerms, autopay: AutopayState): Promise<Reservation> {
  const { company } = await upsertCompany(c.tx as never, c.tenant, request.company);
  const id = newId("sub");
  // A retried request (same Idempotency-Key, same company) finds its first reservation and resumes it.
  const reference = chainReference(c.tenant, "activation", company.id, request.idempotencyKey ?? id);
  const earlier = await findSubscriptionByReference(c.tx, c.tenant, terms.network.id, reference);
  if (earlier) return { subscription: earlier, amount: await pendingAmount(c, earlier), resumed: true };

  const { trialEnd, anchor, periodEnd } = firstPeriod(c.now, terms.trialDays, terms.billingPeriod);
  const redemption = request.couponCode
    ? await redeemCoupon(c.tx, c.tenant, { code: request.couponCode, companyId: company.id, planId: terms.planId }, c.now)
    : null;
  const settings = await subscriptionSettings(c.tx, c.tenant);
  const lines = periodLines({
    ...terms,
    start: c.now,
    end: periodEnd,
    periodIndex: 0,
    coupon: redemption?.coupon ?? null,
    taxRate: settings.taxRate,
  });
  const micro = trialEnd ? 0n : linesTotal(lines);
  const tokenAmount = microToTokenCeil(micro, terms.token.decimals);
  if (!tokenAmount.ok) throw apiError("plan_not_subscribable", `The plan's price cannot be paid in ${terms.token.symbol}: ${tokenAmount.expected}`);
  const amount = tokenAmount.value;
  if (amount > autopay.remaining)
    throw apiError("insufficient_allowance", `The autopay allowance left (${autopay.remaining}) does not cover the first charge (${amount})`);
  if (amount > autopay.balance)
    throw apiError("insufficient_balance", `${request.paymentAccount}'s balance does not cover the first charge (${amount})`);

  const subscription = await insertSubscription(
    c.tx,
    c.tenant,
    {
      id,
      companyId: company.id,
      planId: terms.planId,
      billingPeriod: terms.billingPeriod,
      priceAmount: terms.price,
      currency: terms.currency,
      network: terms.network.id,
      tokenSymbol: terms.token.symbol,
      paymentAccount: request.paymentAccount,
      payeeWallet: terms.payee,
      subscriberEmail: request.subscriberEmail,
      couponId: redemption?.coupon.id ?? null,
      couponRedemptionId: redemption?.id ?? null,
      anchorAt: anchor,
      periodStart: c.now,
      periodEnd,
      trialEnd,
      reference,
    },
    c.now,
  );
  if (!subscription) throw apiError("subscription_exists", `Company ${company.id} already has a live subscription`);
  // A trial's first invoice comes at its end (the renewal job); a paid start has its DRAFT now.
  const invoice = trialEnd
    ? null
    : await createInvoice(
        invoiceContext(c),
        {
          currency: terms.currency,
          network: terms.network.id,
          companyId: company.id,
          customerEmail: request.subscriberEmail,
          customerWallet: request.paymentAccount,
          planId: terms.planId,
          lines,
          metadata: { subscriptionId: id },
        },
        { source: { kind: "subscription", id: periodInvoiceSource(id, c.now) } },
      );
  await insertCharge(
    c.tx,
    c.tenant,
    {
      id: newId("sch"),
      subscriptionId: id,
      kind: "activation",
      reference,
      network: terms.network.id,
      periodStart: c.now,
      attempt: 0,
      invoiceId: invoice?.id ?? null,
      amount,
    },
    c.now,
  );
  return { subscription, amount, resumed: false };
}

/** The amount a resumed reservation's pending operation pulls (0 once it is no longer pending). */
async function pendingAmount(c: TxContext, s: SubscriptionRow): Promise<bigint> {
  const pending = await findPendingCharge(c.tx, c.tenant, s.id);
  return pending ? BigInt(pending.amount) : 0n;
}
