/**
 * Stellar amounts are int64 stroops on the wire (7 fractional digits, fixed by the protocol for every
 * asset). The SDK hands them over as decimal strings ("12.5000000"). Going through Number would round
 * anything above 2^53 stroops (about 900 million units), so the digits are read by the money module's
 * exact parser.
 */
import { formatFixed, parseFixed } from "../../lib/money/decimal";
import { tokenDecimalFormat } from "../../lib/money/units";

export const STELLAR_DECIMALS = 7;
const STELLAR_AMOUNT = tokenDecimalFormat(STELLAR_DECIMALS);

/** "12.5" or "12.5000000" -> 125000000n. Throws RangeError on anything else (sign, exponent, 8+ decimals). */
export function toStroops(decimal: string): bigint {
  const parsed = parseFixed(decimal, STELLAR_AMOUNT);
  if (!parsed.ok) throw new RangeError(`not a Stellar amount: ${JSON.stringify(decimal)}`);
  return parsed.value;
}

/** 125000000n -> "12.5000000", the SDK's own format (what Operation.payment accepts back). */
export function fromStroops(stroops: bigint): string {
  if (stroops < 0n) throw new RangeError("Stellar amounts are never negative");
  return formatFixed(stroops, STELLAR_DECIMALS);
}
