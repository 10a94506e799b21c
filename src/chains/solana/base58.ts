/**
 * Base58 (Bitcoin alphabet): decoding checks a signature's shape before any RPC call; encoding names a
 * transaction we signed (its first signature) and reads back operator keys. Written out rather than
 * imported: bs58 is only a transitive dependency, and this is forty lines.
 */

const ALPHABET = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
const DIGIT = new Map([...ALPHABET].map((c, i) => [c, i]));

/** The decoded bytes, or null when `text` is not base58. */
export function decodeBase58(text: string): Uint8Array | null {
  if (text.length === 0) return null;
  // Little-endian base-256 digits of the number, grown as needed.
  const bytes: number[] = [];
  for (const char of text) {
    let carry = DIGIT.get(char);
    if (carry === undefined) return null;
    for (let i = 0; i < bytes.length; i++) {
      carry += bytes[i]! * 58;
      bytes[i] = carry & 0xff;
      carry >>= 8;
    }
    while (carry > 0) {
      bytes.push(carry & 0xff);
      carry >>= 8;
    }
  }
  // Each leading '1' stands for one leading zero byte.
  for (const char of text) {
    if (char !== "1") break;
    bytes.push(0);
  }
  return Uint8Array.from(bytes.reverse());
}

/** A transaction signature is an ed25519 signature: 64 bytes, base58 text (87 or 88 characters in practice). */
export const isSignature = (text: string): boolean => text.length <= 88 && decodeBase58(text)?.length === 64;

export function encodeBase58(bytes: Uint8Array): string {
  const digits: number[] = []; // little-endian base-58
  for (const byte of bytes) {
    let carry = byte;
    for (let i = 0; i < digits.length; i++) {
      carry += digits[i]! << 8;
      digits[i] = carry % 58;
      carry = Math.floor(carry / 58);
    }
    while (carry > 0) {
      digits.push(carry % 58);
      carry = Math.floor(carry / 58);
    }
  }
  let zeros = "";
  for (const byte of bytes) {
    if (byte !== 0) break;
    zeros += "1";
  }
  return (
    zeros +
    digits
      .reverse()
      .map((d) => ALPHABET[d])
      .join("")
  );
}
