/**
 * Money: the one module that reads, prints, converts and rounds amounts. Amounts are `bigint` in integer
 * smallest units, never a JS number; decimal text exists only at the edges. See docs/money.md.
 */
export { fixedFormat, formatFixed, parseFixed, type FixedFormat, type MoneyResult } from "./decimal";
export {
  formatMicro,
  formatTaxRate,
  formatTokenUnits,
  MAX_MICRO,
  MAX_TOKEN_UNITS,
  MICRO,
  MICRO_DECIMALS,
  microToToken,
  microToTokenCeil,
  parseMicro,
  parseTaxRate,
  parseTokenUnits,
  SIGNED_MICRO,
  TAX_RATE,
  TAX_RATE_DENOMINATOR,
  TOKEN_UNITS,
  tokenDecimalFormat,
  tokenToMicro,
  tokenToMicroFloor,
} from "./units";
export { divRound, lineTax, mulDivRound, prorate } from "./rounding";
export { parseMoney, parseTaxRateField, parseTokenAmount, valueOr400 } from "./field";
