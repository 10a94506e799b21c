/**
 * The operation's reference (32 bytes, hex) travels on chain as the transaction's hash memo: MEMO_HASH holds
 * exactly 32 bytes, so the whole reference fits, unlike a 28-byte text memo. Soroban invocations may carry
 * a memo on the transaction, and a landed transaction keeps it, which is how `lookup` finds it again.
 */
import { Memo } from "@stellar/stellar-sdk";
import { refuse } from "./refusal";

const REFERENCE = /^(?:0x)?([0-9a-fA-F]{64})$/;

/** Throws `reverted` (nothing sent) for a reference that is not 32 bytes of hex: a caller bug, never retried. */
export function referenceBytes(reference: string): Uint8Array {
  const hex = REFERENCE.exec(reference)?.[1];
  if (!hex) refuse("reverted", "The operation reference must be 32 bytes written as 64 hexadecimal digits");
  const bytes = new Uint8Array(32);
  for (let i = 0; i < 32; i++) bytes[i] = Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return bytes;
}

export const referenceMemo = (bytes: Uint8Array): Memo => Memo.hash(bytes);

/** Whether a decoded memo is the hash memo of these reference bytes. */
export function carriesReference(memo: Memo, bytes: Uint8Array): boolean {
  if (memo.type !== "hash" || !(memo.value instanceof Uint8Array)) return false;
  return memo.value.length === bytes.length && memo.value.every((byte, i) => byte === bytes[i]);
}
