/**
 * Kept responses that carry a secret (a minted embed or session token) are stored sealed: AES-GCM under a
 * key derived from TOKEN_SIGNING_SECRET, never in clear (secrets are shown once and otherwise stored only
 * hashed). Whoever holds that secret can mint such tokens anyway, so a database dump gains no working token
 * and the secret's holder nothing new; a retry under the key still gets its token back, as the first answer.
 */

/** Paths whose success body carries a secret. */
export const SECRET_RESPONSE_PATHS: ReadonlySet<string> = new Set([
  "/api/v1/api-keys/tokens",
  "/api/v1/access-tokens",
  // the raw API key and the invitation token, shown once (a retry under the same key gets that first answer)
  "/api/v1/dashboard/api-keys",
  "/api/v1/dashboard/members",
]);

const IV_BYTES = 12;
const keys = new Map<string, Promise<CryptoKey>>();

function keyFor(secret: string): Promise<CryptoKey> {
  let key = keys.get(secret);
  if (!key) {
    key = crypto.subtle
      .digest("SHA-256", new TextEncoder().encode(`idempotency-response\0${secret}`))
      .then((raw) => crypto.subtle.importKey("raw", raw, "AES-GCM", false, ["encrypt", "decrypt"]));
    keys.set(secret, key);
  }
  return key;
}

/** iv || ciphertext (with its tag). */
export async function seal(secret: string, body: Uint8Array<ArrayBuffer>): Promise<Uint8Array<ArrayBuffer>> {
  const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES));
  const sealed = new Uint8Array(await crypto.subtle.encrypt({ name: "AES-GCM", iv }, await keyFor(secret), body));
  const out = new Uint8Array(IV_BYTES + sealed.length);
  out.set(iv);
  out.set(sealed, IV_BYTES);
  return out;
}

/** The body `seal` was given; rejects when the secret is another (rotated) or the bytes were altered. */
export async function unseal(secret: string, stored: Uint8Array<ArrayBuffer>): Promise<Uint8Array<ArrayBuffer>> {
  const iv = stored.subarray(0, IV_BYTES);
  return new Uint8Array(await crypto.subtle.decrypt({ name: "AES-GCM", iv }, await keyFor(secret), stored.subarray(IV_BYTES)));
}
