/** Transaction hashes: 32 bytes, written as 64 hex digits. Horizon uses lowercase; we accept either. */

const TX_HASH = /^[0-9a-fA-F]{64}$/;

export const isTxHash = (value: string): boolean => TX_HASH.test(value);

export function toHex(bytes: Uint8Array): string {
  let hex = "";
  for (const byte of bytes) hex += byte.toString(16).padStart(2, "0");
  return hex;
}
