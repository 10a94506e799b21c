/**
 * The one rounding rule: half away from zero (2.5 -> 3, -2.5 -> -3), so a credit is the exact mirror of
 * the charge it reverses. It is applied once per line (a line's tax, a line's proration) and never to a
 * running total: an invoice's totals are sums of rounded lines, so the lines always add up to the total.
 * (Rounding the sum instead could differ from the sum of rounded lines by up to n/2 micro-units for n lines;
 * that difference is the drift customers see as "the lines don't add up", and summing lines removes it.)
 */
import { TAX_RATE_DENOMINATOR } from "./units";

/** numerator / denominator, rounded half away from zero. The denominator must not be zero. */
export function divRound(numerator: bigint, denominator: bigint): bigint {
  if (denominator === 0n) throw new RangeError("division by zero");
  const quotient = numerator / denominator; // truncates toward zero
  const remainder = numerator % denominator; // carries the numerator's sign
  const abs = (n: bigint) => (n < 0n ? -n : n);
  if (2n * abs(remainder) < abs(denominator)) return quotient;
  return numerator < 0n !== denominator < 0n ? quotient - 1n : quotient + 1n;
}

/** amount x numerator / denominator, with one rounding at the end (the product is exact in bigint). */
export const mulDivRound = (amount: bigint, numerator: bigint, denominator: bigint): bigint => divRound(amount * numerator, denominator);

/** A line's tax: round(subtotal x rate / 100), `rate` in 1/10000 of a percent (see parseTaxRate). */
export const lineTax = (subtotal: bigint, rate: bigint): bigint => mulDivRound(subtotal, rate, TAX_RATE_DENOMINATOR);

/**
 * A price for the unused part of a period: round(price x remaining / period). Seconds come from
 * period.ts (`secondsRemaining`, `periodSeconds`), as numbers; they are whole and far below 2^53.
 */
export function prorate(price: bigint, remainingSeconds: number, periodSeconds: number): bigint {
  if (!Number.isSafeInteger(remainingSeconds) || !Number.isSafeInteger(periodSeconds) || periodSeconds <= 0) {
    throw new RangeError("proration needs whole seconds and a positive period");
  }
  return mulDivRound(price, BigInt(remainingSeconds), BigInt(periodSeconds));
}
