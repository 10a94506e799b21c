/** The subscription tables' queries (migration 00024), one function per statement. */
import { queries, run, runOne, type Db } from "../../db/queries";
import type { Tenant } from "../../lib/tenant";
import {
  DEFAULT_SETTINGS,
  type ChargeKind,
  type ChargeRow,
  type MandateRow,
  type PendingChange,
  type SettingsRow,
  type SubscriptionRow,
  type SubscriptionSettings,
  type SubscriptionStatus,
} from "./rows";

const Q = queries([
  "plan_onchain_id_find_by_value",
  "subscription_insert",
  "subscription_find_by_id",
  "subscription_lock_by_id",
  "subscription_find_by_reference",
  "subscription_find_live_by_company",
  "subscription_update_state",
  "subscription_list_due",
  "subscription_list_incomplete",
  "company_set_plan_anchored",
  "mandate_insert",
  "mandate_find_by_id",
  "mandate_lock_by_id",
  "mandate_lock_by_subscription",
  "mandate_draw",
  "mandate_set_status",
  "mandate_renew_terms",
  "mandate_list_expiring",
  "subscription_charge_insert",
  "subscription_charge_complete",
  "subscription_charge_set_payment",
  "subscription_charge_find_pending",
  "subscription_charge_count",
  "subscription_charge_list_stale",
  "subscription_settings_find",
  "subscription_settings_lock",
  "subscription_settings_upsert",
  "subscription_list_page",
  "subscription_list_page_by_status",
  "subscription_list_page_by_company",
  "mandate_list_by_subscriptions",
  "subscription_names",
  "subscription_charge_list_recent",
  "payer_consent_insert",
]);

const tp = (t: Tenant) => [t.teamId, t.environment] as const;

/**
 * A row's values as one jsonb argument, keyed by column name (the statement unpacks it with
 * jsonb_populate_record, each value taking its column's type): bigints as numeric text, instants as ISO text.
 */
export const columns = (values: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(
    Object.entries(values).map(([k, v]) => [k, typeof v === "bigint" ? v.toString() : v instanceof Date ? v.toISOString() : (v ?? null)]),
  );

export interface OnchainPlanMatch {
  network: string;
  plan_id: string;
  name: string;
  kind: string;
  trial_days: number;
  archived_at: Date | null;
}

export const findPlansByOnchainId = (db: Db, t: Tenant, onchainPlanId: string) =>
  run<OnchainPlanMatch>(db, Q.plan_onchain_id_find_by_value, [...tp(t), onchainPlanId]);

export interface SubscriptionInsert {
  id: string;
  companyId: string;
  planId: string;
  billingPeriod: string;
  priceAmount: bigint;
  currency: string;
  network: string;
  tokenSymbol: string;
  paymentAccount: string;
  payeeWallet: string;
  subscriberEmail: string | null;
  couponId: string | null;
  couponRedemptionId: string | null;
  anchorAt: Date;
  periodStart: Date;
  periodEnd: Date;
  trialEnd: Date | null;
  reference: string;
  /** one live subscription per payment account, network and token (migration 00028) */
  exclusiveAccount: boolean;
}

export const insertSubscription = (db: Db, t: Tenant, s: SubscriptionInsert, now: Date) =>
  runOne<SubscriptionRow>(db, Q.subscription_insert, [
    ...tp(t),
    columns({
      id: s.id,
      company_id: s.companyId,
      plan_id: s.planId,
      billing_period: s.billingPeriod,
      price_amount: s.priceAmount,
      currency: s.currency,
      network: s.network,
      token_symbol: s.tokenSymbol,
      payment_account: s.paymentAccount,
      payee_wallet: s.payeeWallet,
      subscriber_email: s.subscriberEmail,
      coupon_id: s.couponId,
      anchor_at: s.anchorAt,
      current_period_start: s.periodStart,
      current_period_end: s.periodEnd,
      trial_end: s.trialEnd,
      activation_reference: s.reference,
      coupon_redemption_id: s.couponRedemptionId,
      exclusive_account: s.exclusiveAccount,
    }),
    now,
  ]);

/** Spends a payer's consent for `subscriptionId`; false when it was spent before (by any team). */
export const spendPayerConsent = async (db: Db, t: Tenant, c: { network: string; payer: string; nonce: string; subscriptionId: string }, now: Date) =>
  (await runOne(db, Q.payer_consent_insert, [c.network, c.payer, c.nonce, ...tp(t), c.subscriptionId, now])) !== undefined;

export const findSubscription = (db: Db, t: Tenant, id: string) => runOne<SubscriptionRow>(db, Q.subscription_find_by_id, [...tp(t), id]);
export const lockSubscription = (db: Db, t: Tenant, id: string) => runOne<SubscriptionRow>(db, Q.subscription_lock_by_id, [...tp(t), id]);
export const findSubscriptionByReference = (db: Db, t: Tenant, network: string, reference: string) =>
  runOne<SubscriptionRow>(db, Q.subscription_find_by_reference, [...tp(t), network, reference]);
export const findLiveSubscription = (db: Db, t: Tenant, companyId: string) =>
  runOne<SubscriptionRow>(db, Q.subscription_find_live_by_company, [...tp(t), companyId]);

/** Writes every mutable column of `s` (the service changed a copy of the locked row). */
export const saveSubscription = async (db: Db, t: Tenant, s: SubscriptionRow, now: Date): Promise<SubscriptionRow> =>
  (await runOne<SubscriptionRow>(db, Q.subscription_update_state, [
    ...tp(t),
    s.id,
    columns({
      status: s.status,
      plan_id: s.plan_id,
      billing_period: s.billing_period,
      price_amount: s.price_amount,
      period_index: s.period_index,
      current_period_start: s.current_period_start,
      current_period_end: s.current_period_end,
      cancel_at_period_end: s.cancel_at_period_end,
      canceled_at: s.canceled_at,
      cancel_reason: s.cancel_reason,
      scheduled_plan_id: s.scheduled_plan_id,
      scheduled_billing_period: s.scheduled_billing_period,
      token_id: s.token_id,
      activation_tx_hash: s.activation_tx_hash,
      dunning_attempts: s.dunning_attempts,
      next_attempt_at: s.next_attempt_at,
      coupon_id: s.coupon_id,
      trial_end: s.trial_end,
      anchor_at: s.anchor_at,
      coupon_applied_at: s.coupon_applied_at,
      scheduled_coupon_id: s.scheduled_coupon_id,
      scheduled_coupon_applied_at: s.scheduled_coupon_applied_at,
      scheduled_coupon_redemption_id: s.scheduled_coupon_redemption_id,
    }),
    now,
  ]))!;

export interface DueSubscription {
  id: string;
  team_id: string;
  environment: string;
  network: string;
  next_attempt_at: Date;
}

/** One page of the due subscriptions, after `after` (the previous page's last row; null: the first page). */
export const listDueSubscriptions = (db: Db, now: Date, after: DueSubscription | null, limit: number) =>
  run<DueSubscription>(db, Q.subscription_list_due, [now, after?.next_attempt_at ?? new Date(0), after?.id ?? "", limit]);
export const listIncompleteSubscriptions = (db: Db, before: Date, limit: number) =>
  run<SubscriptionRow>(db, Q.subscription_list_incomplete, [before, limit]);

export const setCompanyPlanAnchored = (db: Db, t: Tenant, companyId: string, { planId, anchor }: { planId: string | null; anchor: Date }) =>
  runOne(db, Q.company_set_plan_anchored, [...tp(t), companyId, planId, anchor]);

export interface MandateInsert {
  id: string;
  subscriptionId: string;
  companyId: string;
  network: string;
  tokenSymbol: string;
  payerWallet: string;
  recipientWallet: string;
  authorized: bigint;
  remaining: bigint;
  expiresAt: Date | null;
}

export const insertMandate = async (db: Db, t: Tenant, m: MandateInsert, now: Date): Promise<MandateRow> =>
  (await runOne<MandateRow>(db, Q.mandate_insert, [
    ...tp(t),
    columns({
      id: m.id,
      subscription_id: m.subscriptionId,
      company_id: m.companyId,
      network: m.network,
      token_symbol: m.tokenSymbol,
      payer_wallet: m.payerWallet,
      recipient_wallet: m.recipientWallet,
      authorized_amount: m.authorized,
      remaining_amount: m.remaining,
      expires_at: m.expiresAt,
    }),
    now,
  ]))!;

export const findMandate = (db: Db, t: Tenant, id: string) => runOne<MandateRow>(db, Q.mandate_find_by_id, [...tp(t), id]);
export const lockMandate = (db: Db, t: Tenant, id: string) => runOne<MandateRow>(db, Q.mandate_lock_by_id, [...tp(t), id]);
export const lockMandateOf = (db: Db, t: Tenant, subscriptionId: string) =>
  runOne<MandateRow>(db, Q.mandate_lock_by_subscription, [...tp(t), subscriptionId]);
export const drawMandate = (db: Db, t: Tenant, id: string, { amount, now }: { amount: bigint; now: Date }) =>
  runOne<MandateRow>(db, Q.mandate_draw, [...tp(t), id, amount.toString(), now]);

/** The payer approved again: the mandate takes the new approval's amounts (token units) and expiry. */
export const renewMandateTerms = (db: Db, t: Tenant, id: string, { amount, expiresAt, now }: { amount: bigint; expiresAt: Date | null; now: Date }) =>
  runOne<MandateRow>(db, Q.mandate_renew_terms, [...tp(t), id, amount.toString(), amount.toString(), expiresAt, now]);

export type MandateEnd =
  | { status: "REVOKED"; by: string; reason: string | null }
  | { status: "EXPIRED"; reason: "expires_at_passed" | "remaining_below_next_charge" };

export const endMandate = (db: Db, t: Tenant, id: string, { end, now }: { end: MandateEnd; now: Date }) =>
  runOne<MandateRow>(db, Q.mandate_set_status, [
    ...tp(t),
    id,
    end.status,
    end.status === "REVOKED" ? end.by : null,
    end.status === "REVOKED" ? end.reason : null,
    end.status === "EXPIRED" ? end.reason : null,
    now,
  ]);

export const listExpiringMandates = (db: Db, now: Date, limit: number) =>
  run<{ id: string; team_id: string; environment: string }>(db, Q.mandate_list_expiring, [now, limit]);

export interface ChargeInsert {
  id: string;
  subscriptionId: string;
  kind: ChargeKind;
  reference: string;
  network: string;
  periodStart: Date;
  attempt: number;
  invoiceId: string | null;
  amount: bigint;
  /** proration only: the terms to apply when the pull lands */
  change?: PendingChange;
}

export const insertCharge = (db: Db, t: Tenant, c: ChargeInsert, now: Date) =>
  runOne<ChargeRow>(db, Q.subscription_charge_insert, [
    ...tp(t),
    columns({
      id: c.id,
      subscription_id: c.subscriptionId,
      kind: c.kind,
      reference: c.reference,
      network: c.network,
      period_start: c.periodStart,
      attempt: c.attempt,
      invoice_id: c.invoiceId,
      amount: c.amount,
      change: c.change ?? null,
    }),
    now,
  ]);

export type ChargeEnd = { status: "succeeded"; txHash: string; paymentId: string | null } | { status: "failed"; reason: string; detail: string };

export const completeCharge = (db: Db, t: Tenant, id: string, { end, now }: { end: ChargeEnd; now: Date }) =>
  runOne<ChargeRow>(db, Q.subscription_charge_complete, [
    ...tp(t),
    id,
    end.status,
    end.status === "succeeded" ? end.txHash : null,
    end.status === "succeeded" ? end.paymentId : null,
    end.status === "failed" ? end.reason : null,
    end.status === "failed" ? end.detail.slice(0, 500) : null,
    now,
  ]);

export const setChargePayment = (db: Db, t: Tenant, id: string, paymentId: string) =>
  run(db, Q.subscription_charge_set_payment, [...tp(t), id, paymentId]);

export const countCharges = async (
  db: Db,
  t: Tenant,
  subscriptionId: string,
  { kind, periodStart }: { kind: ChargeKind; periodStart: Date },
): Promise<number> => (await runOne<{ n: number }>(db, Q.subscription_charge_count, [...tp(t), subscriptionId, kind, periodStart]))!.n;
export const findPendingCharge = (db: Db, t: Tenant, subscriptionId: string) =>
  runOne<ChargeRow>(db, Q.subscription_charge_find_pending, [...tp(t), subscriptionId]);
export const listStaleCharges = (db: Db, before: Date, limit: number) => run<ChargeRow>(db, Q.subscription_charge_list_stale, [before, limit]);

const settingsOf = (r: SettingsRow): SubscriptionSettings => ({
  taxRate: BigInt(r.tax_rate),
  dunningRetryHours: r.dunning_retry_hours,
  fallbackPlanId: r.fallback_plan_id,
});

export async function subscriptionSettings(db: Db, t: Tenant): Promise<SubscriptionSettings> {
  const row = await runOne<SettingsRow>(db, Q.subscription_settings_find, tp(t));
  if (!row) return DEFAULT_SETTINGS;
  return settingsOf(row);
}

/** The tenant's settings, locked (made with the defaults when missing) so concurrent partial updates merge. */
export const lockSettings = async (db: Db, t: Tenant, now: Date): Promise<SubscriptionSettings> =>
  settingsOf((await runOne<SettingsRow>(db, Q.subscription_settings_lock, [...tp(t), now]))!);

export const upsertSettings = async (db: Db, t: Tenant, s: SubscriptionSettings, now: Date): Promise<SubscriptionSettings> =>
  settingsOf(
    (await runOne<SettingsRow>(db, Q.subscription_settings_upsert, [
      ...tp(t),
      s.taxRate.toString(),
      s.dunningRetryHours.map(String),
      s.fallbackPlanId,
      now,
    ]))!,
  );

/** Up to `fetch` subscriptions below `beforeSeq` (null: from the newest), newest first, by status or company. */
export function listSubscriptionPage(
  db: Db,
  t: Tenant,
  { beforeSeq, fetch, status, companyId }: { beforeSeq: bigint | null; fetch: number; status: SubscriptionStatus | null; companyId: string | null },
) {
  const page = [t.teamId, t.environment, beforeSeq, fetch] as const;
  if (companyId !== null) return run<SubscriptionRow & { seq: bigint }>(db, Q.subscription_list_page_by_company, [...page, companyId, status]);
  if (status !== null) return run<SubscriptionRow & { seq: bigint }>(db, Q.subscription_list_page_by_status, [...page, status]);
  return run<SubscriptionRow & { seq: bigint }>(db, Q.subscription_list_page, page);
}

export async function mandatesOf(db: Db, t: Tenant, subscriptionIds: string[]): Promise<Map<string, MandateRow>> {
  if (subscriptionIds.length === 0) return new Map();
  const rows = await run<MandateRow>(db, Q.mandate_list_by_subscriptions, [...tp(t), subscriptionIds]);
  return new Map(rows.map((m) => [m.subscription_id, m]));
}

/** What an operator reads subscriptions by: each one's company name, the integrator's id for it, and its plan's name. */
export interface SubscriptionNames {
  company_name: string | null;
  company_external_id: string | null;
  plan_name: string | null;
}

export async function namesOf(db: Db, t: Tenant, subscriptionIds: string[]): Promise<Map<string, SubscriptionNames>> {
  if (subscriptionIds.length === 0) return new Map();
  const rows = await run<SubscriptionNames & { id: string }>(db, Q.subscription_names, [...tp(t), subscriptionIds]);
  return new Map(rows.map(({ id, ...names }) => [id, names]));
}

/** The subscription's `limit` most recent chain operations. */
export const listRecentCharges = (db: Db, t: Tenant, subscriptionId: string, limit: number) =>
  run<ChargeRow>(db, Q.subscription_charge_list_recent, [...tp(t), subscriptionId, limit]);
