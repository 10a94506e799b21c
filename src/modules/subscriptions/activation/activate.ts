/**
 * POST /subscriptions/activate (BILLING.md "Subscriptions"): setup -> reserve -> one chain operation ->
 * finalize.
 *  1. setup, reading only: the plan, network, token and payee the on-chain plan id names (activation/terms.ts), the
 *     payer's signed consent to this subscription, naming the payee, the plan's terms and the company
 *     (activation/consent.ts; 400 when missing, expired or not verifying), and the payer's autopay as the chain
 *     says now (no autopay: 402), all before anything is written;
 *  2. reserve, one transaction committed BEFORE the chain is asked: the company (upserted), the consent spent
 *     (a consent opens one subscription: 409 consent_used), the coupon redeemed, the subscription INCOMPLETE (one
 *     live subscription per company, and on Solana and Stellar per payment account: a racing second activation
 *     is a 409 here, before it can pull anything), the first invoice as a DRAFT, and the pending chain operation
 *     under its reference;
 *  3. the chain operation: pull the first period, mint the subscription token, record the consent's allowance
 *     for this subscription;
 *  4. finalize (activation/finalize.ts): invoice issued and PAID, mandate ACTIVE, subscription ACTIVE, company on the plan.
 * A payer-side refusal ends the reservation (INCOMPLETE_EXPIRED, draft voided, coupon released): nothing is
 * active, nothing charged. An unknown outcome leaves it INCOMPLETE: a retry with the same Idempotency-Key
 * (same reference) or the reconciliation job completes it from the chain, never charging twice.
 */
import { OUTCOME_UNKNOWN, type AutopayState, type EvmConsent } from "../../../chains/subscription-types";
import { apiError } from "../../../lib/errors";
import { newId } from "../../../lib/ids";
import { microToTokenCeil } from "../../../lib/money";
import type { Tenant } from "../../../lib/tenant";
import { redeemCoupon } from "../../catalog/coupons/redeem";
import { upsertCompany } from "../../customers/identify";
import type { CompanyRef } from "../../customers/schemas";
import { createInvoice } from "../../invoices/lifecycle/transitions";
import { periodLines } from "../billing-lines";
import { linesTotal } from "../../invoices/compute";
import { chainError } from "../chain-errors";
import { verifyActivationConsent, type ActivationConsent } from "./consent";
import { companyKeyOf } from "./company-key";
import { approvalNamesPayee, type PayerConsent } from "./payer-consent";
import { invoiceContext, type SubscriptionDeps, type TxContext, type ServiceContext } from "../context";
import { expireActivation, finalizeActivation, mandateFactsAfter } from "./finalize";
import { firstPeriod } from "./first-period";
import type { SubscriptionRow } from "../rows";
import { chainReference, periodInvoiceSource } from "../reference";
import {
  findLiveSubscription,
  findPendingCharge,
  findSubscriptionByReference,
  insertCharge,
  insertSubscription,
  mandatesOf,
  spendPayerConsent,
  subscriptionSettings,
} from "../repo";
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
  /** the payer's signed consent to this subscription (payer-consent.ts, evm-consent.ts) */
  payerConsent: PayerConsent | null;
  idempotencyKey: string | null;
}

export interface ActivationResult {
  tokenId: string;
  txHash: string;
  companyId: string;
  planId: string;
  paymentAccount: string;
  mandateId: string;
}

export async function activateSubscription({ deps, tenant, actor, now }: ServiceContext, request: ActivationRequest): Promise<ActivationResult> {
  const terms = await activationTerms(deps.sql, deps.chains, tenant, { onchainPlanId: request.planId, paymentAccount: request.paymentAccount });
  const consent = await verifyActivationConsent(deps, tenant, { request, terms, now });
  const parties = { network: terms.network, token: terms.token, payer: request.paymentAccount, payee: terms.payee };
  const autopay = await deps.pool.subscription({ op: "readAutopay", request: parties });
  if (!autopay.ok) throw chainError(autopay);
  if (!autopay.installed)
    throw apiError(
      "autopay_not_installed",
      consent.evm
        ? `${request.paymentAccount} has not approved the subscription contract for ${terms.token.symbol} on ${terms.network.id}`
        : `${request.paymentAccount} has no autopay for ${terms.payee} in ${terms.token.symbol} on ${terms.network.id}`,
    );
  const limits = consent.evm ? consentLimits(autopay, consent.evm) : autopay;

  const reserved = await deps.sql.begin((tx) => reserve({ deps, tx, tenant, actor, now }, request, terms, limits, consent));
  const sub = reserved.subscription;
  if (sub.status !== "INCOMPLETE") return resultOf(deps, tenant, sub, request);

  const operation = await deps.pool.subscription({
    op: "activate",
    request: {
      ...parties,
      amount: reserved.amount,
      periodSeconds: windowSeconds(sub.billing_period),
      reference: sub.activation_reference,
      consent: consent.evm,
    },
  });
  if (operation.ok) {
    // A resumed reservation's pull may have landed before this request read the autopay (its first attempt's answer
    // was lost): the cap before it is then read after it. A fresh one's reference was unused when autopay was read.
    const facts = reserved.resumed ? await mandateFactsAfter(deps, parties, operation) : { before: limits.remaining, expiresAt: limits.expiresAt };
    // The pull landed but cannot be recorded yet: an unknown outcome to the client, completed by a retry or the job.
    if ("ok" in facts) throw chainError({ ok: false, reason: "rpc_unavailable", detail: facts.detail });
    const done = await finalizeActivation({ deps, tenant, actor, now }, sub.id, operation, facts);
    return resultOf(deps, tenant, done, request);
  }
  if (!OUTCOME_UNKNOWN.has(operation.reason)) await expireActivation({ deps, tenant, actor, now }, sub.id, operation);
  throw chainError(operation);
}

/**
 * What an EVM activation may pull: the consent's cap (the authorization the subscription gets, its mandate's
 * amount) and per-period allowance, within the payer's approval of the contract; pulls stop at its end.
 */
function consentLimits(autopay: AutopayState, consent: EvmConsent): AutopayState {
  return {
    ...autopay,
    periodAllowance: consent.periodAllowance,
    periodSeconds: consent.periodSeconds,
    availableInWindow: consent.periodAllowance,
    remaining: consent.cap,
    expiresAt: consent.end,
  };
}

async function resultOf(deps: SubscriptionDeps, tenant: Tenant, s: SubscriptionRow, r: ActivationRequest): Promise<ActivationResult> {
  if (s.status === "INCOMPLETE_EXPIRED")
    throw apiError("activation_failed", "This activation failed and charged nothing; send a new request with a new Idempotency-Key");
  const mandate = (await mandatesOf(deps.sql, tenant, [s.id])).get(s.id);
  return {
    tokenId: s.token_id ?? "",
    txHash: s.activation_tx_hash ?? "",
    companyId: s.company_id,
    planId: r.planId,
    paymentAccount: s.payment_account,
    mandateId: mandate?.id ?? "",
  };
}

interface Reservation {
  subscription: SubscriptionRow;
  /** token units the activation pulls */
  amount: bigint;
  /** an earlier request's reservation, found by the reference (its pull may have landed already) */
  resumed: boolean;
}

async function reserve(
  c: TxContext,
  request: ActivationRequest,
  terms: ActivationTerms,
  autopay: AutopayState,
  consent: ActivationConsent,
): Promise<Reservation> {
  const { company } = await upsertCompany(c.tx as never, c.tenant, request.company);
  // The consent was checked against the company as it was read; this is the one the activation is for.
  if (companyKeyOf(company) !== consent.company)
    throw apiError("conflict", "The company changed while the activation was checked; send the request again");
  const id = newId("sub");
  // A retried request (same Idempotency-Key, same company) finds its first reservation and resumes it.
  const reference = chainReference(c.tenant, "activation", company.id, request.idempotencyKey ?? id);
  const earlier = await findSubscriptionByReference(c.tx, c.tenant, terms.network.id, reference);
  if (earlier) return { subscription: earlier, amount: await pendingAmount(c, earlier), resumed: true };
  // The consent first: a replay is refused as one, whatever else the request would run into.
  if (consent.usedOnChain) throw consentUsed();
  const spend = { network: terms.network.id, payer: consent.payer, nonce: consent.nonce, subscriptionId: id };
  if (!(await spendPayerConsent(c.tx, c.tenant, spend, c.now))) throw consentUsed();

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
  if (amount > autopay.remaining || (autopay.availableInWindow !== undefined && amount > autopay.availableInWindow))
    throw apiError(
      "insufficient_allowance",
      `The autopay allowance (${autopay.availableInWindow ?? autopay.remaining}) does not cover the first charge (${amount})`,
    );
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
      exclusiveAccount: !approvalNamesPayee(terms.network.family),
    },
    c.now,
  );
  if (!subscription) {
    if (await findLiveSubscription(c.tx, c.tenant, company.id))
      throw apiError("subscription_exists", `Company ${company.id} already has a live subscription`);
    // Said without naming the other subscription: it may be another team's.
    throw apiError(
      "payment_account_in_use",
      `${request.paymentAccount}'s ${terms.token.symbol} account on ${terms.network.id} already pays a live subscription; one account pays one subscription (use another account, or cancel the other subscription first)`,
    );
  }
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

const consentUsed = () => apiError("consent_used", "This consent was already used to activate a subscription; the payer signs a new one for each");

/** The amount a resumed reservation's pending operation pulls (0 once it is no longer pending). */
async function pendingAmount(c: TxContext, s: SubscriptionRow): Promise<bigint> {
  const pending = await findPendingCharge(c.tx, c.tenant, s.id);
  return pending ? BigInt(pending.amount) : 0n;
}
