/**
 * Kept responses that carry a secret (a minted embed or session token, a webhook signing secret) are stored
 * sealed: AES-GCM under a key derived from TOKEN_SIGNING_SECRET (src/lib/sealing.ts), never in clear
 * (secrets are shown once and otherwise stored only hashed or sealed). Whoever holds that secret can mint
 * such tokens anyway, so a database dump gains no working token and the secret's holder nothing new; a
 * retry under the key still gets its secret back, as the first answer.
 */
import { seal as sealWith, unseal as unsealWith } from "../../lib/sealing";

/** Paths whose success body carries a secret. */
export const SECRET_RESPONSE_PATHS: ReadonlySet<string> = new Set([
  "/api/v1/api-keys/tokens",
  "/api/v1/access-tokens",
  // the raw API key and the invitation token, shown once (a retry under the same key gets that first answer)
  "/api/v1/dashboard/api-keys",
  "/api/v1/dashboard/members",
]);
/** Paths with an id whose success body carries a secret: a new webhook endpoint, a rotated endpoint secret. */
const SECRET_RESPONSE_PATTERNS: readonly RegExp[] = [/^\/api\/v1\/dashboard\/webhooks\/endpoints(\/[^/]+\/rotate-secret)?$/];

/**
 * Whether a kept response on `path` must be sealed. Trailing slashes are dropped first: the router serves
 * `/dashboard/api-keys/` as `/dashboard/api-keys`, and a raw key created there was stored in clear.
 */
export function carriesSecret(path: string): boolean {
  const route = path.replace(/\/+$/, "");
  return SECRET_RESPONSE_PATHS.has(route) || SECRET_RESPONSE_PATTERNS.some((p) => p.test(route));
}

const PURPOSE = "idempotency-response";

export const seal = (secret: string, body: Uint8Array<ArrayBuffer>) => sealWith(secret, PURPOSE, body);
export const unseal = (secret: string, stored: Uint8Array<ArrayBuffer>) => unsealWith(secret, PURPOSE, stored);
