/**
 * The terms of a coupon (its discount, duration and plans), checked as one: exactly one of percentOff and
 * amountOff, a currency with an amount and only then, durationPeriods with `repeating` and only then.
 */
import type { ChainRegistry } from "../../../lib/networks";
import { MICRO, formatFixed, formatMicro } from "../../../lib/money";
import type { Environment } from "../../../lib/tenant";
import { checkCurrencyAmount } from "../currency";
import { COUPON_DURATIONS, MAX_DURATION_PERIODS, PERCENT_OFF, type CouponDuration } from "./schemas";
import { type CouponRow } from "./rows";
import type { Problems } from "../problems";

export interface TermsInput {
  percentOff?: unknown;
  amountOff?: unknown;
  currency?: unknown;
  duration?: unknown;
  durationPeriods?: unknown;
}

export interface CouponTerms {
  percentOffBp: number | null;
  amountOff: bigint | null;
  currency: string | null;
  duration: CouponDuration;
  durationPeriods: number | null;
}

const given = (v: unknown) => v !== undefined && v !== null;
const positiveAmount = (v: bigint) => (v === 0n ? "Expected an amount greater than 0" : null);

/**
 * The discount fields a patch sends, each on its own, checked before the coupon is read: a malformed
 * amount is a 400 naming it, never a 404 or a 409 about the coupon. How they combine with the stored terms
 * is checkTerms', once the coupon is read.
 */
export function checkTermFormats(p: Problems, input: TermsInput): void {
  if (given(input.percentOff) && given(input.amountOff)) p.add("amountOff", "Give percentOff or amountOff, not both");
  else if (given(input.percentOff)) p.fixed("percentOff", input.percentOff, PERCENT_OFF);
  else if (given(input.amountOff)) p.fixed("amountOff", input.amountOff, MICRO, positiveAmount);
}

export function checkTerms(p: Problems, chains: ChainRegistry, environment: Environment, input: TermsInput): CouponTerms | null {
  const before = Object.keys(p.details).length;
  let percentOffBp: number | null = null;
  let amountOff: bigint | null = null;
  let currency: string | null = null;
  if (given(input.percentOff) && given(input.amountOff)) {
    p.add("amountOff", "Give percentOff or amountOff, not both");
  } else if (given(input.percentOff)) {
    const bp = p.fixed("percentOff", input.percentOff, PERCENT_OFF);
    if (bp !== null) percentOffBp = Number(bp);
    if (given(input.currency)) p.add("currency", "A currency goes with amountOff only");
  } else if (given(input.amountOff)) {
    amountOff = p.fixed("amountOff", input.amountOff, MICRO, positiveAmount);
    if (!given(input.currency) || typeof input.currency !== "string") p.add("currency", "Expected the token symbol of amountOff, such as USDC");
    else {
      const checked = checkCurrencyAmount(chains, environment, input.currency, amountOff);
      if (checked.ok) currency = checked.symbol;
      else p.add(checked.on === "amount" ? "amountOff" : "currency", checked.expected);
    }
  } else {
    p.add("percentOff", "Expected percentOff or amountOff");
  }
  const duration = input.duration as CouponDuration;
  if (!(COUPON_DURATIONS as readonly unknown[]).includes(input.duration)) p.add("duration", `Expected one of: ${COUPON_DURATIONS.join(", ")}`);
  let durationPeriods: number | null = null;
  if (duration === "repeating") {
    p.integer("durationPeriods", input.durationPeriods, 1, MAX_DURATION_PERIODS);
    durationPeriods = input.durationPeriods as number;
  } else if (given(input.durationPeriods)) p.add("durationPeriods", "Only a repeating coupon has durationPeriods");
  if (Object.keys(p.details).length > before) return null;
  return { percentOffBp, amountOff, currency, duration, durationPeriods };
}

/** A stored coupon's terms in the input's words, so a patch merges over them and is checked as a whole. */
export const termsInputOf = (r: CouponRow): TermsInput => ({
  percentOff: r.percent_off_bp === null ? null : formatFixed(BigInt(r.percent_off_bp), 2),
  amountOff: r.amount_off === null ? null : formatMicro(BigInt(r.amount_off)),
  currency: r.currency,
  duration: r.duration,
  durationPeriods: r.duration_periods,
});

/** An expiry: a date-time in the future, or null. */
export function checkExpiry(p: Problems, value: unknown, now: Date): Date | null {
  if (value === undefined || value === null) return null;
  const at = typeof value === "string" ? new Date(value) : null;
  if (!at || Number.isNaN(at.getTime())) p.add("expiresAt", "Expected an ISO 8601 date-time");
  else if (at <= now) p.add("expiresAt", "Expected a time in the future");
  else return at;
  return null;
}
