/**
 * x402 around a metered request (POST /events, POST /usage/consume; docs/x402.md): without a payment header the
 * request runs as it always did, and only its insufficient-credit 402 reads the offered pack to add the terms; with
 * one, the payment is verified and settled first (settle.ts), then the request runs and the answer carries the
 * settlement. A refused payment is a 402 with the spec's body and the terms naming the reason; the request does
 * not run.
 */
import { encodePaymentResponseHeader } from "@x402/core/http";
import type { SettleResponse } from "@x402/core/types";
import type { ChainPool } from "../../chains/pool";
import type { Sql } from "../../db/client";
import type { Clock } from "../../lib/clock";
import { ApiError } from "../../lib/errors";
import { sha256Hex } from "../../lib/hash";
import type { ChainRegistry } from "../../lib/networks";
import type { Tenant } from "../../lib/tenant";
import { requestState } from "../../http/request-context";
import { actorOf } from "../audit/repo";
import { linkOrigin } from "../../http/public-origin";
import type { PaidRequest } from "../entitlements/gate";
import { matchOffer, readPaymentHeader, type Read } from "./compute";
import { answerFromClaim, findClaim, settlePayment, type PaymentContext, type SettleDeps } from "./settle";
import { offeredPack, paymentRequiredError, type OfferedPack } from "./terms";

/** What x402 needs from the service; src/app-deps.ts provides it (`settlement`). */
export interface X402Deps {
  sql: Sql;
  clock: Clock;
  settlement: { registry: ChainRegistry; pool: ChainPool; companyChanged(tenant: Tenant, companyId: string): void };
  /** how long a claim belongs to the request that made it (docs/x402.md#idempotency) */
  leaseMs: number;
  /** where clients reach the service, for the terms' `resource.url` (as invoice links: PUBLIC_BASE_URL, else the request's origin) */
  origin: { publicBaseUrl: string | null; trustProxy: boolean };
}

/** The URL the client asked for, as the client sees it: what PAYMENT-REQUIRED's `resource.url` names. */
const resourceUrl = (deps: X402Deps, request: Request) => {
  const url = new URL(request.url);
  return `${linkOrigin(deps.origin, request)}${url.pathname}${url.search}`;
};

const isInsufficientCredits = (error: unknown): error is ApiError => error instanceof ApiError && error.code === "insufficient_credits";

/** An insufficient-credit refusal with the offered terms added, when there are any. */
async function withTerms(deps: X402Deps, paid: PaidRequest, error: ApiError, headers: Record<string, string> = {}): Promise<ApiError> {
  const offered = await offeredPack(deps.sql, deps.settlement.registry, paid.principal);
  return offered ? paymentRequiredError(offered, resourceUrl(deps, paid.request), { headers }) : error;
}

/** Plain requests stay on the fast path: two header reads, and the terms only when the request ends in their 402. */
export function withX402<T>(deps: X402Deps, paid: PaidRequest, run: () => Promise<T>): Promise<T> {
  const v2 = paid.request.headers.get("payment-signature");
  const header = v2 ?? paid.request.headers.get("x-payment");
  if (header === null) return run().catch(async (error) => Promise.reject(isInsufficientCredits(error) ? await withTerms(deps, paid, error) : error));
  return paidRequest(deps, paid, run, { header, version: v2 !== null ? 2 : 1 });
}

async function paidRequest<T>(deps: X402Deps, paid: PaidRequest, run: () => Promise<T>, p: { header: string; version: 1 | 2 }): Promise<T> {
  const offered = await offeredPack(deps.sql, deps.settlement.registry, paid.principal);
  const companyId = await paid.companyId();
  // Nobody to credit: nothing is taken, and the request answers as it would without the header.
  if (!companyId) return run();
  const settled = await pay(deps, paid, { offered, companyId, ...p });
  // No terms to pay and no claim of this payment: nothing is taken either.
  if (settled === null) return run();
  if (!settled.ok) throw paymentRequiredError(offered, resourceUrl(deps, paid.request), { error: settled.reason });
  const responseHeader = { [p.version === 2 ? "payment-response" : "x-payment-response"]: encodePaymentResponseHeader(settled.value) };
  Object.assign(paid.headers, responseHeader);
  try {
    return await run();
  } catch (error) {
    // The pack did not cover this use: the settlement is still told, with the terms to buy more.
    throw isInsufficientCredits(error) ? await withTerms(deps, paid, error, responseHeader) : error;
  }
}

/**
 * The payment's outcome; null when it is not taken (no payable terms, and no claim of it to answer from). A claim of
 * the same authorization is answered first, against the claim: a settlement still pending must complete even when
 * the pack was archived or repriced since.
 */
async function pay(
  deps: X402Deps,
  paid: PaidRequest,
  p: { offered: OfferedPack | null; companyId: string; header: string; version: 1 | 2 },
): Promise<Read<SettleResponse> | null> {
  const payment = readPaymentHeader(p.header, p.version);
  if (!payment.ok) return p.offered ? payment : null;
  const { principal, request } = paid;
  const tenant: Tenant = { teamId: principal.teamId, environment: principal.environment };
  const settleDeps: SettleDeps = { sql: deps.sql, pool: deps.settlement.pool, registry: deps.settlement.registry, leaseMs: deps.leaseMs };
  const ctx: PaymentContext = {
    tenant,
    actor: actorOf(principal, requestState(request).requestId),
    now: new Date(deps.clock.now()),
    companyId: p.companyId,
    payment: payment.value,
    // The company is part of the request: the same body from another company's embed token is another request.
    fingerprint: sha256Hex(
      JSON.stringify([tenant.teamId, tenant.environment, p.companyId, request.method, new URL(request.url).pathname, paid.body ?? null]),
    ),
    usageKey: paid.usageKey,
  };
  const claim = await findClaim(settleDeps, payment.value);
  let result: Read<SettleResponse>;
  if (claim) result = await answerFromClaim(settleDeps, claim, ctx);
  else if (!p.offered) return null;
  else {
    const offer = matchOffer(payment.value, p.offered.offers);
    if (!offer.ok) return offer as Read<never>;
    result = await settlePayment(settleDeps, { ...ctx, pack: p.offered.pack, offer: offer.value });
  }
  // The grant committed: this instance's cache of the company drops it now, not at the change notice.
  if (result.ok) deps.settlement.companyChanged(tenant, p.companyId);
  return result;
}
