/** Database row types of plans: a plan with its prices, on-chain ids and (on single-plan reads) entitlements, its lock, a price. */
import { type Static } from "elysia";
import type { BillingPeriod, PlanKind, PlanEntitlement } from "./schemas";

export interface PlanFullRow {
  id: string;
  name: string;
  tier: string;
  description: string | null;
  kind: PlanKind;
  trial_days: number;
  archived_at: Date | null;
  created_at: Date;
  updated_at: Date;
  seq: bigint;
  prices: { billingPeriod: BillingPeriod; amount: string; currency: string }[];
  onchain_plan_ids: Record<string, string>;
  entitlements?: Omit<Static<typeof PlanEntitlement>, "planId">[];
}

/** A locked plan: its own columns, without the timestamps. */
export type PlanLockRow = Omit<PlanFullRow, "created_at" | "updated_at">;

export interface PriceRow {
  plan_id: string;
  billing_period: BillingPeriod;
  amount: bigint;
  currency: string;
  kind: PlanKind;
  trial_days: number;
  archived_at: Date | null;
}
