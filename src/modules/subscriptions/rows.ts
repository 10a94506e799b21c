/** Subscription, mandate and chain-operation rows (migration 00024), as postgres.js returns them. */
import type { Interval } from "../../lib/period";

export type SubscriptionStatus = "INCOMPLETE" | "INCOMPLETE_EXPIRED" | "TRIALING" | "ACTIVE" | "PAST_DUE" | "CANCELED";
export const LIVE_STATUSES: readonly SubscriptionStatus[] = ["INCOMPLETE", "TRIALING", "ACTIVE", "PAST_DUE"];

export interface SubscriptionRow {
  id: string;
  team_id: string;
  environment: string;
  company_id: string;
  plan_id: string;
  billing_period: Interval;
  price_amount: bigint;
  currency: string;
  network: string;
  token_symbol: string;
  payment_account: string;
  payee_wallet: string;
  subscriber_email: string | null;
  coupon_id: string | null;
  coupon_redemption_id: string | null;
  status: SubscriptionStatus;
  anchor_at: Date;
  period_index: number;
  current_period_start: Date;
  current_period_end: Date;
  trial_end: Date | null;
  cancel_at_period_end: boolean;
  canceled_at: Date | null;
  cancel_reason: string | null;
  scheduled_plan_id: string | null;
  scheduled_billing_period: Interval | null;
  /** the period index where the coupon's first discounted period falls (plan-change/proration-terms.ts) */
  coupon_applied_at: number;
  scheduled_coupon_id: string | null;
  scheduled_coupon_applied_at: number | null;
  /** the redemption of the coupon a scheduled change redeemed (not one it carries over): given back if the change is replaced or undone */
  scheduled_coupon_redemption_id: string | null;
  token_id: string | null;
  activation_reference: string;
  activation_tx_hash: string | null;
  dunning_attempts: number;
  next_attempt_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

/** A subscription's columns with no change scheduled: what applying, replacing or undoing one writes. */
export const NOTHING_SCHEDULED = {
  scheduled_plan_id: null,
  scheduled_billing_period: null,
  scheduled_coupon_id: null,
  scheduled_coupon_applied_at: null,
  scheduled_coupon_redemption_id: null,
} as const satisfies Partial<SubscriptionRow>;

export type MandateStatus = "ACTIVE" | "EXPIRED" | "REVOKED";

export interface MandateRow {
  id: string;
  team_id: string;
  environment: string;
  subscription_id: string;
  company_id: string;
  network: string;
  token_symbol: string;
  payer_wallet: string;
  recipient_wallet: string;
  /** numeric(78,0) comes back as text */
  authorized_amount: string;
  remaining_amount: string;
  status: MandateStatus;
  expires_at: Date | null;
  revoked_at: Date | null;
  revoked_by: string | null;
  revoke_reason: string | null;
  expired_at: Date | null;
  expiry_reason: string | null;
  created_at: Date;
  updated_at: Date;
}

export type ChargeKind = "activation" | "renewal" | "proration";

export interface ChargeRow {
  id: string;
  team_id: string;
  environment: string;
  subscription_id: string;
  kind: ChargeKind;
  reference: string;
  network: string;
  period_start: Date;
  attempt: number;
  invoice_id: string | null;
  amount: string;
  status: "pending" | "succeeded" | "failed";
  failure_reason: string | null;
  failure_detail: string | null;
  tx_hash: string | null;
  payment_id: string | null;
  /** proration only: the terms the pull pays for */
  change: PendingChange | null;
  created_at: Date;
  completed_at: Date | null;
}

/**
 * A plan change's terms as the subscription takes them (JSON-safe: dates as ISO strings, the price as a
 * string): stored on a proration pull's row so whoever records its outcome applies exactly what was quoted.
 */
export interface PendingChange {
  planId: string;
  billingPeriod: Interval;
  price: string;
  couponId: string | null;
  couponAppliedAt: number;
  anchor: string;
  periodIndex: number;
  periodStart: string;
  periodEnd: string;
  kind: "upgrade" | "downgrade" | "same";
  /** the coupon redeemed with the change: released if the pull is refused */
  redemptionId: string | null;
  /** what the change's invoice drew from the company's credit balance (micro-units): given back if the pull is refused */
  balanceApplied: string;
}
export interface SubscriptionSettings {
  /** 1/10000 of a percent */
  taxRate: bigint;
  dunningRetryHours: number[];
  fallbackPlanId: string | null;
}

export const DEFAULT_SETTINGS: SubscriptionSettings = { taxRate: 0n, dunningRetryHours: [24, 72, 168], fallbackPlanId: null };

/** A tenant's subscription settings as stored (subscription_settings). */
export interface SettingsRow {
  tax_rate: number;
  dunning_retry_hours: number[];
  fallback_plan_id: string | null;
}
