/**
 * Hashing and signing with Bun's synchronous CryptoHasher (the hot path cannot await crypto.subtle).
 * Signatures are compared in constant time.
 */
import { timingSafeEqual } from "./timing-safe";

export function sha256Hex(input: string): string {
  return new Bun.CryptoHasher("sha256").update(input).digest("hex");
}

export function hmacSha256(secret: string, input: string): Uint8Array {
  return new Uint8Array(new Bun.CryptoHasher("sha256", secret).update(input).digest().buffer);
}

// TC39 Uint8Array base64 methods (standard, shipped by Bun); typed here until lib.dom catches up.
type Base64Options = { alphabet: "base64url"; omitPadding?: boolean };
interface Base64Bytes {
  toBase64(options: Base64Options): string;
}
const Uint8ArrayBase64 = Uint8Array as unknown as { fromBase64(text: string, options: Base64Options): Uint8Array };

export function base64url(bytes: Uint8Array | string): string {
  const buf = typeof bytes === "string" ? new TextEncoder().encode(bytes) : bytes;
  return (buf as unknown as Base64Bytes).toBase64({ alphabet: "base64url", omitPadding: true });
}

/**
 * The bytes of canonical base64url text; throws on anything else, which callers treat as a malformed value.
 * The standard decoder is lenient: it skips whitespace, takes `=` padding and ignores the unused low bits of
 * the last character, so one signature could be written several ways. A credential must have exactly one
 * spelling (it is a cache key, a rate-limit identity, a value compared by users), so only the text that
 * re-encodes to itself is accepted.
 */
export function fromBase64url(text: string): Uint8Array {
  const bytes = Uint8ArrayBase64.fromBase64(text, { alphabet: "base64url" });
  if (base64url(bytes) !== text) throw new TypeError("Not canonical base64url");
  return bytes;
}

/** `payload.signature`, both base64url; the secret is namespaced by purpose so one signature never serves two uses. */
export function signPayload(secret: string, purpose: string, payload: unknown): string {
  const body = base64url(JSON.stringify(payload));
  return `${body}.${base64url(hmacSha256(secret, `${purpose}:${body}`))}`;
}

/** The payload of a value made by `signPayload`, or null when it is malformed or its signature does not match. */
export function verifyPayload<T>(secret: string, purpose: string, signed: string): T | null {
  const dot = signed.indexOf(".");
  if (dot <= 0 || dot !== signed.lastIndexOf(".")) return null;
  const body = signed.slice(0, dot);
  try {
    const given = fromBase64url(signed.slice(dot + 1));
    if (!timingSafeEqual(given, hmacSha256(secret, `${purpose}:${body}`))) return null;
    return JSON.parse(new TextDecoder().decode(fromBase64url(body))) as T;
  } catch {
    return null;
  }
}
