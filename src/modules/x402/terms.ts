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

/** The spec's 402 body, with the PAYMENT-REQUIRED header (and any other headers given, e.g. a PAYMENT-RESPONSE). */
export function paymentRequiredError(
  offered: OfferedPack,
  resourceUrl: string,
  extra: { error?: string; headers?: Record<string, string> } = {},
): ApiError {
  const terms = paymentRequired(offered.offers, { url: resourceUrl, description: offered.description }, extra.error);
  return apiError("insufficient_credits", "Insufficient credits", {}, { ...extra.headers, "payment-required": encodePaymentRequiredHeader(terms) });
}
