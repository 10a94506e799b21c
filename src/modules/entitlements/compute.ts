/**
 * Pure entitlement rules: which grant applies, when a quota period starts and ends, how a trait
 * compares, and what a check answers. No I/O; "now" always comes from the caller.
 */
import type { EntitlementKind } from "../catalog/schemas";
import { DAY_MS } from "../../lib/period";

export type Period = "day" | "week" | "month" | "lifetime";
export type TraitOperator = "eq" | "neq" | "gt" | "gte" | "lt" | "lte";
export type GrantSource = "plan" | "add_on" | "override";

/** One entitlement of a feature, from a plan, an add-on plan or a company override. */
export interface Grant {
  /** the feature it grants (its usage counters are the feature's) */
  featureId: string;
  kind: EntitlementKind;
  enabled: boolean;
  limit: bigint | null;
  period: Period | null;
  creditsPerUse: bigint | null;
  traitKey: string | null;
  traitOperator: TraitOperator | null;
  traitValue: string | null;
  source: GrantSource;
  /** the plan id for plan and add-on grants; null for overrides */
  planId: string | null;
}

// Across kinds, the more generous grant wins: unlimited use beats a quota, a quota (free up to its
// limit) beats paying credits, and a trait rule or a switched-off grant gives the least.
const KIND_RANK: Record<EntitlementKind, number> = { boolean: 4, quota: 3, credit: 2, trait: 1 };
const rank = (g: Grant) => (g.enabled ? KIND_RANK[g.kind] : 0);

/** True when `a` gives the company more than `b`. */
function moreGenerous(a: Grant, b: Grant): boolean {
  if (rank(a) !== rank(b)) return rank(a) > rank(b);
  if (a.kind === "quota" && b.kind === "quota") return a.limit! > b.limit!;
  if (a.kind === "credit" && b.kind === "credit") return a.creditsPerUse! < b.creditsPerUse!;
  return false;
}

/**
 * The grant that applies to a company for one feature: its override when it has one, otherwise the
 * most generous of its plan's and add-ons' grants (ties keep the earlier: plan before add-ons).
 */
export function resolveGrant(override: Grant | undefined, planGrants: readonly Grant[]): Grant | null {
  if (override) return override;
  let best: Grant | null = null;
  for (const g of planGrants) if (!best || moreGenerous(g, best)) best = g;
  return best;
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
}

/** The anchor moved by `months` calendar months (UTC), its day clamped to the month's last day. */
function addMonths(anchor: Date, months: number): number {
  const y = anchor.getUTCFullYear();
  const m = anchor.getUTCMonth() + months;
  const target = new Date(Date.UTC(y, m, 1));
  const day = Math.min(anchor.getUTCDate(), daysInMonth(target.getUTCFullYear(), target.getUTCMonth()));
  return Date.UTC(
    target.getUTCFullYear(),
    target.getUTCMonth(),
    day,
    anchor.getUTCHours(),
    anchor.getUTCMinutes(),
    anchor.getUTCSeconds(),
    anchor.getUTCMilliseconds(),
  );
}

export interface PeriodBounds {
  start: number;
  /** null for lifetime quotas */
  end: number | null;
  /** counterKey(featureId, start) per feature, built once per period (see counterKeyIn) */
  counterKeys?: Map<string, string>;
}

/**
 * The quota period containing `now`, aligned on the company's billing anchor: days and weeks are
 * whole multiples of their length from the anchor; months follow the anchor's day of the month (the
 * 31st becomes the month's last day, as Stripe does). Lifetime quotas have one period, from the epoch.
 */
export function periodBounds(anchorMs: number, period: Period, now: number): PeriodBounds {
  if (period === "lifetime") return { start: 0, end: null };
  if (period === "day" || period === "week") {
    const length = period === "day" ? DAY_MS : 7 * DAY_MS;
    const start = anchorMs + Math.floor((now - anchorMs) / length) * length;
    return { start, end: start + length };
  }
  const anchor = new Date(anchorMs);
  const current = new Date(now);
  let months = (current.getUTCFullYear() - anchor.getUTCFullYear()) * 12 + (current.getUTCMonth() - anchor.getUTCMonth());
  if (addMonths(anchor, months) > now) months -= 1;
  return { start: addMonths(anchor, months), end: addMonths(anchor, months + 1) };
}

/** Compares numerically when both sides are numbers, otherwise as strings (ordering operators then fail closed). */
export function traitMatches(actual: unknown, operator: TraitOperator, expected: string): boolean {
  if (actual === undefined || actual === null) return false;
  const a = typeof actual === "string" ? actual : typeof actual === "number" || typeof actual === "boolean" ? String(actual) : JSON.stringify(actual);
  const numeric = a.trim() !== "" && expected.trim() !== "" && Number.isFinite(Number(a)) && Number.isFinite(Number(expected));
  switch (operator) {
    case "eq":
      return numeric ? Number(a) === Number(expected) : a === expected;
    case "neq":
      return numeric ? Number(a) !== Number(expected) : a !== expected;
    case "gt":
      return numeric && Number(a) > Number(expected);
    case "gte":
      return numeric && Number(a) >= Number(expected);
    case "lt":
      return numeric && Number(a) < Number(expected);
    case "lte":
      return numeric && Number(a) <= Number(expected);
  }
}

/** A credit grant as held in memory: what is left, and when it lapses (null: never). */
export interface CreditLot {
  remaining: bigint;
  expiresAt: number | null;
}

/** A lot expiring exactly at `now` is already gone (meter_settle() spends only `expires_at > now`). */
export const isSpendable = (lot: CreditLot, now: number): boolean => lot.expiresAt === null || lot.expiresAt > now;

/** Credits spendable at `now`: lots that have not expired. */
export function creditBalance(lots: readonly CreditLot[], now: number): bigint {
  let total = 0n;
  for (const lot of lots) if (isSpendable(lot, now)) total += lot.remaining;
  return total;
}

/**
 * The burn order, as meter_settle() spends (sql: `expires_at nulls last, created_at, id`): the spendable lots,
 * soonest-expiring first, never-expiring last. Lots of one expiry keep the order given: list them oldest first.
 * The database decides every burn; this order is what the caches hold, and test/entitlements/metering-cases.ts checks the two agree.
 */
export function inBurnOrder<L extends CreditLot>(lots: readonly L[], now: number): L[] {
  const expiry = (lot: CreditLot) => lot.expiresAt ?? Number.POSITIVE_INFINITY;
  return lots.filter((lot) => isSpendable(lot, now)).sort((a, b) => (expiry(a) === expiry(b) ? 0 : expiry(a) < expiry(b) ? -1 : 1));
}

export type Reason =
  | "enabled"
  | "within_limit"
  | "credits_available"
  | "trait_matched"
  | "not_in_plan"
  | "disabled"
  | "limit_reached"
  | "insufficient_credits"
  | "trait_not_matched"
  | "company_not_found";

export interface Decision {
  access: boolean;
  reason: Reason;
  limit: bigint | null;
  used: bigint | null;
  remaining: bigint | null;
  period: PeriodBounds | null;
  creditsPerUse: bigint | null;
  creditBalance: bigint | null;
}

export const counterKey = (featureId: string, periodStart: number) => `${featureId}:${periodStart}`;

/**
 * counterKey of a feature in a period, remembered on the period's bounds: a cached company's checks of one
 * period look their counter up by the same string each time, instead of building (and hashing) a new one.
 */
function counterKeyIn(period: PeriodBounds, featureId: string): string {
  const keys = (period.counterKeys ??= new Map());
  let key = keys.get(featureId);
  if (key === undefined) keys.set(featureId, (key = counterKey(featureId, period.start)));
  return key;
}

export interface CompanyFacts {
  anchorMs: number;
  traits: Record<string, unknown>;
  /** counterKey(featureId, periodStart) -> units used in that period */
  counters: ReadonlyMap<string, bigint>;
  lots: readonly CreditLot[];
  /** currentPeriod's memo: the bounds last computed for each period length, until they lapse */
  periods?: Partial<Record<Period, PeriodBounds>>;
}

/**
 * periodBounds of the company's anchor, remembered on its facts while `now` stays inside: a cached
 * company answers every check of a period without recomputing calendar dates.
 */
export function currentPeriod(company: CompanyFacts, period: Period, now: number): PeriodBounds {
  const known = company.periods?.[period];
  if (known && now >= known.start && (known.end === null || now < known.end)) return known;
  const bounds = periodBounds(company.anchorMs, period, now);
  (company.periods ??= {})[period] = bounds;
  return bounds;
}

/** One use burns at most this many credits (events.credits_burned is an int8); more is refused, as meter_settle() does. */
const MAX_BURN = 2n ** 63n - 1n;

const denied = (reason: Reason): Decision => ({
  access: false,
  reason,
  limit: null,
  used: null,
  remaining: null,
  period: null,
  creditsPerUse: null,
  creditBalance: null,
});

/** What a check answers for `quantity` more units of the grant's feature under `grant`. */
export function decide(grant: Grant | null, company: CompanyFacts, now: number, quantity = 1n): Decision {
  if (!grant) return denied("not_in_plan");
  if (!grant.enabled) return denied("disabled");
  switch (grant.kind) {
    case "boolean":
      return { ...denied("enabled"), access: true };
    case "trait": {
      const ok = traitMatches(company.traits[grant.traitKey!], grant.traitOperator!, grant.traitValue!);
      return { ...denied(ok ? "trait_matched" : "trait_not_matched"), access: ok };
    }
    case "quota": {
      const period = currentPeriod(company, grant.period!, now);
      const used = company.counters.get(counterKeyIn(period, grant.featureId)) ?? 0n;
      const remaining = grant.limit! > used ? grant.limit! - used : 0n;
      const access = remaining >= quantity;
      return {
        access,
        reason: access ? "within_limit" : "limit_reached",
        limit: grant.limit,
        used,
        remaining,
        period,
        creditsPerUse: null,
        creditBalance: null,
      };
    }
    case "credit": {
      const balance = creditBalance(company.lots, now);
      const cost = grant.creditsPerUse! * quantity;
      const access = balance >= cost && cost <= MAX_BURN;
      return {
        access,
        reason: access ? "credits_available" : "insufficient_credits",
        limit: null,
        used: null,
        remaining: null,
        period: null,
        creditsPerUse: grant.creditsPerUse,
        creditBalance: balance,
      };
    }
  }
}
