/**
 * What billing reads from the catalog (the subscription and invoice services): a plan's price for a
 * billing period, and the plan an on-chain plan id names. Reads only; each takes the caller's
 * connection or transaction.
 */
import type { Db } from "../../../db/queries";
import type { Tenant } from "../../../lib/tenant";
import type { BillingPeriod, PlanKind } from "./schemas";
import { findPlanByOnchainIdRow, findPrice } from "./repo";

export interface PlanPriceRecord {
  planId: string;
  billingPeriod: BillingPeriod;
  /** invoice micro-units (6 fractional digits), > 0 */
  amount: bigint;
  /** the settlement token's symbol as the chain registry spells it (USDC) */
  currency: string;
  kind: PlanKind;
  trialDays: number;
  archived: boolean;
}

/** The plan's price for `billingPeriod`, or null when the plan (of this tenant) has none. */
export async function findPlanPrice(db: Db, tenant: Tenant, planId: string, billingPeriod: BillingPeriod): Promise<PlanPriceRecord | null> {
  const r = await findPrice(db, tenant, planId, billingPeriod);
  if (!r) return null;
  return {
    planId: r.plan_id,
    billingPeriod: r.billing_period,
    amount: BigInt(r.amount),
    currency: r.currency,
    kind: r.kind,
    trialDays: r.trial_days,
    archived: r.archived_at !== null,
  };
}

export interface OnchainPlanRecord {
  id: string;
  name: string;
  tier: string;
  kind: PlanKind;
  trialDays: number;
  archived: boolean;
}

/**
 * The plan that `onchainPlanId` names on `network` (a chain registry id such as "base"), or null. This is
 * how POST /subscriptions/activate resolves its `planId`, which the spec defines as the on-chain plan id.
 */
export async function findPlanByOnchainId(db: Db, tenant: Tenant, network: string, onchainPlanId: string): Promise<OnchainPlanRecord | null> {
  const r = await findPlanByOnchainIdRow(db, tenant, network, onchainPlanId);
  if (!r) return null;
  return { id: r.id, name: r.name, tier: r.tier, kind: r.kind, trialDays: r.trial_days, archived: r.archived_at !== null };
}
