/**
 * Secrets the service must read back later (a kept response carrying a token, a webhook endpoint's signing
 * secret) are stored sealed: AES-GCM under a key derived from a configured secret and a purpose, so each
 * use has a key of its own and a database dump alone opens nothing.
 */
const IV_BYTES = 12;
const keys = new Map<string, Promise<CryptoKey>>();

function keyFor(secret: string, purpose: string): Promise<CryptoKey> {
  const id = `${purpose}\0${secret}`;
  let key = keys.get(id);
  if (!key) {
    key = crypto.subtle
      .digest("SHA-256", new TextEncoder().encode(id))
      .then((raw) => crypto.subtle.importKey("raw", raw, "AES-GCM", false, ["encrypt", "decrypt"]));
    keys.set(id, key);
  }
  return key;
}

/** iv || ciphertext (with its tag). */
export async function seal(secret: string, purpose: string, body: Uint8Array<ArrayBuffer>): Promise<Uint8Array<ArrayBuffer>> {
  const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES));
  const sealed = new Uint8Array(await crypto.subtle.encrypt({ name: "AES-GCM", iv }, await keyFor(secret, purpose), body));
  const out = new Uint8Array(IV_BYTES + sealed.length);
  out.set(iv);
  out.set(sealed, IV_BYTES);
  return out;
}

/** The body `seal` was given; rejects when the secret or purpose is another (rotated) or the bytes were altered. */
export async function unseal(secret: string, purpose: string, stored: Uint8Array<ArrayBuffer>): Promise<Uint8Array<ArrayBuffer>> {
  const iv = stored.subarray(0, IV_BYTES);
  return new Uint8Array(await crypto.subtle.decrypt({ name: "AES-GCM", iv }, await keyFor(secret, purpose), stored.subarray(IV_BYTES)));
}
