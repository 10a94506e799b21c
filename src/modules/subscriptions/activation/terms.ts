/**
 * What an activation's `planId` (the spec's on-chain plan id) and `paymentAccount` resolve to: the plan and
 * the network it names (a tenant's on-chain id is unique per network; when it names plans on several
 * networks, the payment account's address family and the credential's environment pick one, and two left
 * is a 400 naming them), the plan's price (monthly when it has one, else yearly), the token of the price's
 * currency on that network, and the team's settlement wallet there (the payee).
 */
import { isValidAddress } from "../../../chains/addresses";
import { findToken, networkAllowedIn, type ChainRegistry } from "../../../lib/networks";
import type { NetworkConfig, TokenConfig } from "../../../chains/types";
import type { Db } from "../../../db/queries";
import { apiError } from "../../../lib/errors";
import type { Interval } from "../../../lib/period";
import type { Tenant } from "../../../lib/tenant";
import { findPrice } from "../../catalog/plans/repo";
import { findSettlementWallet } from "../../invoices/repo";
import { findPlansByOnchainId } from "../repo";

export interface PlanTerms {
  planId: string;
  planName: string;
  trialDays: number;
  billingPeriod: Interval;
  /** micro-units per period */
  price: bigint;
  currency: string;
}

export interface ActivationTerms extends PlanTerms {
  network: NetworkConfig;
  token: TokenConfig;
  payee: string;
}

const invalid = (field: string, message: string) => apiError("validation_failed", "Validation failed", { [field]: message });

export async function activationTerms(
  db: Db,
  registry: ChainRegistry,
  tenant: Tenant,
  { onchainPlanId, paymentAccount }: { onchainPlanId: string; paymentAccount: string },
): Promise<ActivationTerms> {
  const matches = (await findPlansByOnchainId(db, tenant, onchainPlanId)).filter((m) => {
    const network = registry.get(m.network);
    return network !== undefined && networkAllowedIn(network, tenant.environment);
  });
  if (matches.length === 0) throw apiError("plan_not_found", `No plan has the on-chain id ${onchainPlanId}`);
  const usable = matches.filter((m) => isValidAddress(registry.get(m.network)!.family, paymentAccount));
  if (usable.length === 0)
    throw invalid("body.paymentAccount", `Expected an address of ${[...new Set(matches.map((m) => registry.get(m.network)!.family))].join(" or ")}`);
  if (usable.length > 1)
    throw invalid(
      "body.planId",
      `Names plans on several networks of this address family (${usable.map((m) => m.network).join(", ")}); give each network its own on-chain id`,
    );
  const match = usable[0]!;
  if (match.archived_at) throw apiError("plan_not_subscribable", `Plan ${match.plan_id} is archived`);
  if (match.kind !== "plan") throw invalid("body.planId", "Names an add-on; subscriptions are to plans");
  const network = registry.get(match.network)!;
  const plan = await planTerms(db, tenant, { planId: match.plan_id, period: null, name: match.name, trialDays: match.trial_days });
  const token = findToken(network, plan.currency);
  if (!token) throw apiError("subscriptions_not_configured", `${network.id} has no token ${plan.currency} for plan ${plan.planId}'s price`);
  const wallet = await findSettlementWallet(db, tenant, network.id);
  if (!wallet) throw apiError("subscriptions_not_configured", `The team has no settlement wallet on ${network.id}`);
  return { ...plan, network, token, payee: wallet.wallet };
}

/** A plan's price for `period` (null: monthly when it has one, else yearly); a plan without one is a 409. */
export async function planTerms(
  db: Db,
  tenant: Tenant,
  { planId, period, name, trialDays }: { planId: string; period: Interval | null; name: string; trialDays: number },
): Promise<PlanTerms> {
  for (const billingPeriod of period ? [period] : (["monthly", "yearly"] as const)) {
    const price = await findPrice(db, tenant, planId, billingPeriod);
    if (price) return { planId, planName: name, trialDays, billingPeriod, price: BigInt(price.amount), currency: price.currency };
  }
  throw apiError("plan_not_subscribable", `Plan ${planId} has no ${period ?? "monthly or yearly"} price`);
}
