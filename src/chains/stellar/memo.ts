/**
 * The memo ties a payment to one invoice when many customers pay the same account. It is read from the
 * decoded envelope, never from Horizon's `memo` field.
 *
 * Accepted: a text memo whose bytes are exactly the UTF-8 of the expected string, or an id memo whose
 * decimal value is exactly the expected string (exchanges often send numeric references as MEMO_ID).
 * Hash and return memos never match a string. No trimming, no case folding: a memo is an identifier.
 */
import type { Memo } from "@stellar/stellar-sdk/base";

export function memoMatches(memo: Memo, expected: string): boolean {
  if (memo.type === "text") return sameBytes(textBytes(memo.value), new TextEncoder().encode(expected));
  if (memo.type === "id") return memo.value === expected;
  return false;
}

/** What a memo that failed `memoMatches` was, for the refusal sentence (never echoes the memo itself). */
export function describeMismatch(memo: Memo): string {
  if (memo.type === "none") return "no memo";
  return memo.type === "text" || memo.type === "id" ? "a different memo" : `a ${memo.type} memo`;
}

// Decoded memos carry bytes (text memos need not be UTF-8); a memo built in-process may carry a string.
function textBytes(value: unknown): Uint8Array {
  if (value instanceof Uint8Array) return value;
  return new TextEncoder().encode(String(value));
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, i) => byte === b[i]);
}
