/**
 * Fixed-point decimal text <-> integer smallest units, exactly. Every amount format in the service (invoice
 * micro-units, token units, tax rates, Stellar's 7-digit amounts) is an instance of `FixedFormat`, so the
 * one parser below is the only code that reads money from text.
 *
 * Accepted: digits, optionally `.` and 1 to `scale` fractional digits, optionally a leading `-` when the
 * format's minimum is negative. Refused, never rounded: exponent notation (`1e3`), a `+` sign, whitespace,
 * `1.` and `.5`, more fractional digits than the scale (`0.30000000000000000001` is not `0.3`), and values
 * outside [min, max]. Leading zeros (`007.5`) are exact, so they are read; printing never writes them.
 */

export interface FixedFormat {
  /** Fractional digits: 6 for invoice micro-units, the token's decimals for token units, 0 for integers. */
  scale: number;
  /** Smallest and largest value in smallest units (both inclusive). */
  min: bigint;
  max: bigint;
  /** What a caller is told when a value is refused ("Expected ..."); see `expectation`. */
  expected: string;
}

/** A parse or conversion outcome: route code turns a refusal into a 400 naming the field (see field.ts). */
export type MoneyResult = { ok: true; value: bigint } | { ok: false; expected: string };

const DECIMAL = /^(-?)(\d+)(?:\.(\d+))?$/;
/**
 * The widest value any format holds is 2^256 - 1 (78 digits) plus its fractional digits; a longer text is
 * refused before BigInt reads it, so a megabyte of zeros costs nothing.
 */
const MAX_TEXT_LENGTH = 160;

export const pow10 = (n: number): bigint => 10n ** BigInt(n);

/** Reads `text` into smallest units of `format`, or says what was expected. */
export function parseFixed(text: string, format: FixedFormat): MoneyResult {
  const refused = { ok: false, expected: format.expected } as const;
  if (text.length > MAX_TEXT_LENGTH) return refused;
  const match = DECIMAL.exec(text);
  if (!match) return refused;
  const [, sign, whole = "", fraction = ""] = match;
  if (fraction.length > format.scale) return refused;
  if (sign && format.min >= 0n) return refused; // "-0" too: a sign where none is allowed is a mistake, not a zero
  const magnitude = BigInt(whole) * pow10(format.scale) + BigInt(fraction.padEnd(format.scale, "0"));
  const value = sign ? -magnitude : magnitude;
  if (value < format.min || value > format.max) return refused;
  return { ok: true, value };
}

/** Smallest units -> canonical text with exactly `scale` fractional digits ("12.500000"); integers when scale is 0. */
export function formatFixed(units: bigint, scale: number): string {
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(scale + 1, "0");
  const whole = digits.slice(0, digits.length - scale);
  const text = scale === 0 ? whole : `${whole}.${digits.slice(digits.length - scale)}`;
  return negative ? `-${text}` : text;
}

/** The refusal message of a format, written once from its bounds so it cannot drift from them. */
function expectation(scale: number, min: bigint, max: bigint, maxText = formatFixed(max, scale)): string {
  const kind = scale === 0 ? "an integer string" : `a decimal string with at most ${scale} fractional digits`;
  return `Expected ${kind} from ${formatFixed(min, scale)} to ${maxText} (no exponent, no + sign, no spaces)`;
}

export function fixedFormat(scale: number, min: bigint, max: bigint, maxText?: string): FixedFormat {
  return { scale, min, max, expected: expectation(scale, min, max, maxText) };
}
