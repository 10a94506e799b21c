/**
 * The service's two money units and the tax rate, each a `FixedFormat`:
 *
 * - invoice micro-units: the invoice currency at 6 fractional digits (the spec's "12.500000"). Stored as a
 *   PostgreSQL `bigint` (int8), so the range is +-(2^63 - 1) micro-units, about 9.2 trillion currency units.
 *   The bound is symmetric so that negating an amount (a credit line) never leaves the range.
 * - token units: the settlement token's smallest unit (integer strings in the spec), 0 to 2^256 - 1, what
 *   an EVM uint256 and a `NUMERIC(78,0)` column both hold.
 * - tax rate: a percentage with up to 4 fractional digits ("7.25", "8.8750"), held as an integer in
 *   1/10000 of a percent (7.25% = 72500), from 0 to 100%.
 */
import { fixedFormat, formatFixed, parseFixed, pow10, type MoneyResult } from "./decimal";

export const MICRO_DECIMALS = 6;
export const MAX_MICRO = 2n ** 63n - 1n;
export const MAX_TOKEN_UNITS = 2n ** 256n - 1n;
export const TAX_RATE_DECIMALS = 4;
/** 100% in tax-rate units: tax = subtotal x rate / TAX_RATE_DENOMINATOR. */
export const TAX_RATE_DENOMINATOR = 100n * pow10(TAX_RATE_DECIMALS);
/** ERC-20 `decimals()` is a uint8; Stellar is 7, SPL tokens at most 9, USDC 6. */
export const MAX_TOKEN_DECIMALS = 255;

/** Invoice amounts that are never negative (prices, payments, refunds). */
export const MICRO = fixedFormat(MICRO_DECIMALS, 0n, MAX_MICRO);
/** Invoice amounts that may be negative (credit and discount lines, balances). */
export const SIGNED_MICRO = fixedFormat(MICRO_DECIMALS, -MAX_MICRO, MAX_MICRO);
export const TOKEN_UNITS = fixedFormat(0, 0n, MAX_TOKEN_UNITS, "2^256 - 1");
export const TAX_RATE = fixedFormat(TAX_RATE_DECIMALS, 0n, TAX_RATE_DENOMINATOR);

/** A token amount written as a decimal in whole tokens ("12.5" USDC), read into the token's smallest units. */
export const tokenDecimalFormat = (decimals: number) =>
  fixedFormat(decimals, 0n, MAX_TOKEN_UNITS, `the largest uint256 amount at ${decimals} decimals`);

export const parseMicro = (text: string, signed = false): MoneyResult => parseFixed(text, signed ? SIGNED_MICRO : MICRO);
export const formatMicro = (micro: bigint): string => formatFixed(micro, MICRO_DECIMALS);
export const parseTokenUnits = (text: string): MoneyResult => parseFixed(text, TOKEN_UNITS);
export const formatTokenUnits = (units: bigint): string => formatFixed(units, 0);
export const parseTaxRate = (text: string): MoneyResult => parseFixed(text, TAX_RATE);
export const formatTaxRate = (rate: bigint): string => formatFixed(rate, TAX_RATE_DECIMALS);

function checkDecimals(decimals: number): string | null {
  return Number.isInteger(decimals) && decimals >= 0 && decimals <= MAX_TOKEN_DECIMALS
    ? null
    : `Expected token decimals from 0 to ${MAX_TOKEN_DECIMALS}`;
}

/**
 * Invoice micro-units -> token units, exactly: a multiplication for tokens of 6 or more decimals, a
 * division that must leave no remainder below 6 (a 2-decimal token cannot be paid "0.001"). Refused
 * rather than rounded, so an invoice is never settled for a different amount than it shows.
 */
export function microToToken(micro: bigint, decimals: number): MoneyResult {
  const bad = checkDecimals(decimals);
  if (bad) return { ok: false, expected: bad };
  if (micro < 0n) return { ok: false, expected: "Expected a non-negative amount (token transfers are never negative)" };
  if (decimals >= MICRO_DECIMALS) {
    const units = micro * pow10(decimals - MICRO_DECIMALS);
    if (units > MAX_TOKEN_UNITS)
      return { ok: false, expected: `Expected an amount the token can represent (below 2^256 units at ${decimals} decimals)` };
    return { ok: true, value: units };
  }
  const divisor = pow10(MICRO_DECIMALS - decimals);
  if (micro % divisor !== 0n) return { ok: false, expected: `Expected at most ${decimals} fractional digits (the token's precision)` };
  return { ok: true, value: micro / divisor };
}

/**
 * Token units -> invoice micro-units, exactly; an amount finer than a micro-unit (1 wei of an 18-decimal
 * token) is refused. Compare a payment with what it owes in token units (convert the invoice amount up,
 * with microToToken) rather than bringing chain amounts down through this.
 */
export function tokenToMicro(units: bigint, decimals: number): MoneyResult {
  const bad = checkDecimals(decimals);
  if (bad) return { ok: false, expected: bad };
  if (units < 0n) return { ok: false, expected: "Expected a non-negative token amount" };
  let micro: bigint;
  if (decimals > MICRO_DECIMALS) {
    const divisor = pow10(decimals - MICRO_DECIMALS);
    if (units % divisor !== 0n)
      return { ok: false, expected: `Expected a token amount in whole micro-units (multiples of ${divisor} at ${decimals} decimals)` };
    micro = units / divisor;
  } else {
    micro = units * pow10(MICRO_DECIMALS - decimals);
  }
  if (micro > MAX_MICRO) return { ok: false, expected: `Expected an amount of at most ${formatMicro(MAX_MICRO)}` };
  return { ok: true, value: micro };
}

/**
 * Token units -> invoice micro-units, rounded down: what a payment in a token finer than a micro-unit
 * (Stellar's 7 decimals, an 18-decimal EVM token) is worth on an invoice. The payment itself keeps its exact
 * token units; only the invoice's view of it is rounded, and down, so an invoice never shows more than was
 * paid. `precision` (0 to 6) rounds down further to that many fractional digits, for a currency that a
 * coarser token also settles (an amount every token of the currency can represent).
 */
export function tokenToMicroFloor(units: bigint, decimals: number, precision: number = MICRO_DECIMALS): MoneyResult {
  const bad = checkDecimals(decimals);
  if (bad) return { ok: false, expected: bad };
  if (units < 0n) return { ok: false, expected: "Expected a non-negative token amount" };
  let micro = decimals > MICRO_DECIMALS ? units / pow10(decimals - MICRO_DECIMALS) : units * pow10(MICRO_DECIMALS - decimals);
  if (precision < MICRO_DECIMALS) micro -= micro % pow10(MICRO_DECIMALS - Math.max(0, precision));
  if (micro > MAX_MICRO) return { ok: false, expected: `Expected an amount of at most ${formatMicro(MAX_MICRO)}` };
  return { ok: true, value: micro };
}

/**
 * Invoice micro-units -> the fewest token units worth at least that much: exact for tokens of 6 or more
 * decimals, rounded up below 6 (a 2-decimal token pays "0.001" with 1 unit, "0.01"). What a payment must
 * move to settle an amount.
 */
export function microToTokenCeil(micro: bigint, decimals: number): MoneyResult {
  if (decimals >= MICRO_DECIMALS || micro < 0n) return microToToken(micro, decimals);
  const bad = checkDecimals(decimals);
  if (bad) return { ok: false, expected: bad };
  const divisor = pow10(MICRO_DECIMALS - decimals);
  return { ok: true, value: (micro + divisor - 1n) / divisor };
}
