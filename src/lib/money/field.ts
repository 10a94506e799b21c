/**
 * Money at the HTTP edge: parse a request field or answer 400 `{error, details: {<field>: "Expected ..."}}`,
 * e.g. `const amount = parseMoney(body.amount, "body.amount")`.
 */
import { apiError } from "../errors";
import { parseFixed, type FixedFormat, type MoneyResult } from "./decimal";
import { MICRO, SIGNED_MICRO, TAX_RATE, TOKEN_UNITS } from "./units";

/** The value, or the 400 that names `field` and says what was expected. */
export function valueOr400(result: MoneyResult, field: string): bigint {
  if (result.ok) return result.value;
  throw apiError("validation_failed", "Validation failed", { [field]: result.expected });
}

/**
 * A double represents every decimal of at most 15 significant digits exactly enough that its shortest
 * printed form gives those digits back, so such a number is taken as written; a longer one may be the
 * result of arithmetic (0.1 + 0.2 prints as 0.30000000000000004), so it is refused. (A JSON literal the
 * parser rounded, `0.30000000000000000001` arriving as 0.3, is refused earlier, for every request, by
 * src/lib/exact-json.ts.) Fields that must be exact to the last digit take strings.
 */
const MAX_EXACT_DOUBLE_DIGITS = 15;

function textOf(value: unknown): string | null {
  if (typeof value === "string") return value;
  if (typeof value !== "number" || !Number.isFinite(value)) return null;
  const text = String(value); // the shortest form that reads back as the same double; exponent past 1e21 or below 1e-6
  const significant = text.replace(/^-/, "").replace(".", "").replace(/^0+/, "");
  return significant.length <= MAX_EXACT_DOUBLE_DIGITS ? text : null;
}

function parseField(value: unknown, field: string, format: FixedFormat): bigint {
  const text = textOf(value);
  return valueOr400(text === null ? { ok: false, expected: format.expected } : parseFixed(text, format), field);
}

/** An invoice amount in micro-units from "12.5" or "12.500000"; negative only with `{ signed: true }`. */
export const parseMoney = (value: unknown, field: string, options: { signed?: boolean } = {}): bigint =>
  parseField(value, field, options.signed ? SIGNED_MICRO : MICRO);

/** Token units from an integer string ("25000000"). */
export const parseTokenAmount = (value: unknown, field: string): bigint => parseField(value, field, TOKEN_UNITS);

/** A tax percentage with up to 4 fractional digits ("7.25") in 1/10000 of a percent (72500n). */
export const parseTaxRateField = (value: unknown, field: string): bigint => parseField(value, field, TAX_RATE);
