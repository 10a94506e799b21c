/**
 * The terms an insufficient-credit 402 offers (docs/x402.md#the-402): the environment's offered credit pack,
 * priced on the networks where the team has a settlement wallet. Read only when a 402 is answered or a payment
 * arrives, never on a request that succeeds without one.
 */
import { encodePaymentRequiredHeader } from "@x402/core/http";
import type { Db } from "../../db/queries";
import { apiError, type ApiError } from "../../lib/errors";
import type { ChainRegistry } from "../../lib/networks";
import type { Tenant } from "../../lib/tenant";
import type { CreditPackRow } from "../catalog/credit-packs/rows";
import { findOfferedCreditPack } from "../catalog/credit-packs/repo";
import { listSettlementWalletRows } from "../invoices/settings/repo";
import { offersOf, paymentRequired, type Offer } from "./compute";

export interface OfferedPack {
  pack: CreditPackRow;
  offers: Offer[];
  /** what the payer buys, as PAYMENT-REQUIRED's resource describes it */
  description: string;
}

/** The offered pack with its payable prices; null when the environment offers none (or none can be paid). */
export async function offeredPack(db: Db, registry: ChainRegistry, tenant: Tenant): Promise<OfferedPack | null> {
  const [pack, wallets] = await Promise.all([findOfferedCreditPack(db, tenant), listSettlementWalletRows(db, tenant)]);
  if (!pack) return null;
  const offers = offersOf(registry, tenant.environment, pack.prices, wallets);
  if (offers.length === 0) return null;
  return { pack, offers, description: `${pack.name}: ${String(pack.credits)} credits` };
}

/**
 * The spec's 402 body, with the PAYMENT-REQUIRED header (and any other headers given, e.g. a PAYMENT-RESPONSE).
 * `settlement_pending` offers nothing to pay (empty `accepts`): the payment already made will be settled, and a
 * client that paid again would buy the pack twice (docs/x402.md#idempotency). So does a refusal with no pack offered.
 */
export function paymentRequiredError(
  offered: OfferedPack | null,
  resourceUrl: string,
  extra: { error?: string; headers?: Record<string, string> } = {},
): ApiError {
  const offers = offered && extra.error !== "settlement_pending" ? offered.offers : [];
  const terms = paymentRequired(offers, { url: resourceUrl, description: offered?.description ?? "Credits" }, extra.error);
  return apiError("insufficient_credits", "Insufficient credits", {}, { ...extra.headers, "payment-required": encodePaymentRequiredHeader(terms) });
}
