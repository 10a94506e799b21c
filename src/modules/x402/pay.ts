/**
 * x402 around a metered request (POST /events, POST /usage/consume; docs/x402.md): without a payment header the
 * request runs as it always did, and only its insufficient-credit 402 reads the offered pack to add the terms; with
 * one, the payment is verified and settled first (settle.ts), then the request runs and the answer carries the
 * settlement. A refused payment is a 402 with the spec's body and the terms naming the reason; the request does
 * not run.
 */
import { encodePaymentResponseHeader } from "@x402/core/http";
import type { ChainPool } from "../../chains/pool";
import type { Sql } from "../../db/client";
import type { Clock } from "../../lib/clock";
import { ApiError } from "../../lib/errors";
import { sha256Hex } from "../../lib/hash";
import type { ChainRegistry } from "../../lib/networks";
import type { Tenant } from "../../lib/tenant";
import { requestState } from "../../http/request-context";
import { actorOf } from "../audit/repo";
import { linkOrigin } from "../invoices/documents/links";
import type { PaidRequest } from "../entitlements/gate";
import { matchOffer, readPaymentHeader, type Read } from "./compute";
import { settlePayment } from "./settle";
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
  const companyId = offered && (await paid.companyId());
  // No terms to pay, or nobody to credit: nothing is taken, and the request answers as it would without the header.
  if (!offered || !companyId) return run();
  const settled = await pay(deps, paid, { offered, companyId, ...p });
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

async function pay(deps: X402Deps, paid: PaidRequest, p: { offered: OfferedPack; companyId: string; header: string; version: 1 | 2 }) {
  const payment = readPaymentHeader(p.header, p.version);
  if (!payment.ok) return payment;
  const offer = matchOffer(payment.value, p.offered.offers);
  if (!offer.ok) return offer as Read<never>;
  const { principal, request } = paid;
  const tenant: Tenant = { teamId: principal.teamId, environment: principal.environment };
  const fingerprint = sha256Hex(
    JSON.stringify([tenant.teamId, tenant.environment, request.method, new URL(request.url).pathname, paid.body ?? null]),
  );
  const result = await settlePayment(
    { sql: deps.sql, pool: deps.settlement.pool, leaseMs: deps.leaseMs },
    {
      tenant,
      actor: actorOf(principal, requestState(request).requestId),
      now: new Date(deps.clock.now()),
      companyId: p.companyId,
      pack: p.offered.pack,
      offer: offer.value,
      payment: payment.value,
      fingerprint,
      usageKey: paid.usageKey,
    },
  );
  // The grant committed: this instance's cache of the company drops it now, not at the change notice.
  if (result.ok) deps.settlement.companyChanged(tenant, p.companyId);
  return result;
}
