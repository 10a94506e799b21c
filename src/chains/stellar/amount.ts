/**
 * Stellar amounts are int64 stroops on the wire (7 fractional digits, fixed by the protocol for every
 * asset). The SDK hands them over as decimal strings ("12.5000000"). Going through Number would round
 * anything above 2^53 stroops (about 900 million units), so the digits are parsed as text.
 */

export const STELLAR_DECIMALS = 7;
const SCALE = 10n ** BigInt(STELLAR_DECIMALS);
const DECIMAL = /^(\d+)(?:\.(\d{1,7}))?$/;

/** "12.5" or "12.5000000" -> 125000000n. Throws RangeError on anything else (sign, exponent, 8+ decimals). */
export function toStroops(decimal: string): bigint {
  const match = DECIMAL.exec(decimal);
  if (!match) throw new RangeError(`not a Stellar amount: ${JSON.stringify(decimal)}`);
  const [, whole = "0", fraction = ""] = match;
  return BigInt(whole) * SCALE + BigInt(fraction.padEnd(STELLAR_DECIMALS, "0"));
}

/** 125000000n -> "12.5000000", the SDK's own format (what Operation.payment accepts back). */
export function fromStroops(stroops: bigint): string {
  if (stroops < 0n) throw new RangeError("Stellar amounts are never negative");
  const whole = stroops / SCALE;
  const fraction = (stroops % SCALE).toString().padStart(STELLAR_DECIMALS, "0");
  return `${whole}.${fraction}`;
}
