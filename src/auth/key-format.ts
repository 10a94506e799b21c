/**
 * Raw credential formats.
 *   sk_live_… sk_test_… rk_… pk_…  API keys; `live` selects production, `test` development (spec rule 1)
 *   api_…                          legacy keys; their environment is chosen at creation and stored
 *   be_tok_…                       embed access tokens (signed, stateless)
 *   eyJ….….…                       session JWTs from POST /access-tokens (also embed tokens)
 *   dsess_…                        dashboard sessions (normally sent as the `__Host-be_session` cookie; `be_session` on plain http)
 */
import { randomToken } from "../lib/ids";
import type { KeyType } from "./kinds";
import type { Environment } from "../lib/tenant";

const TYPE_PREFIX: Record<Exclude<KeyType, "LEGACY">, string> = { SECRET: "sk", RESTRICTED: "rk", PUBLISHABLE: "pk" };
export const KEY_PREFIX_LENGTH = 16;
export const EMBED_TOKEN_PREFIX = "be_tok_";
export const DASHBOARD_SESSION_PREFIX = "dsess_";
/** The session cookie's name without `Secure` (DASHBOARD_COOKIE_SECURE=false, plain-http development). */
export const DASHBOARD_COOKIE = "be_session";
/**
 * Its name with `Secure`: the `__Host-` prefix makes the browser refuse the cookie unless it is Secure, has Path=/
 * and no Domain, and was set by this very host, so a sibling subdomain or a plain-http answer cannot plant one.
 */
export const SECURE_DASHBOARD_COOKIE = `__Host-${DASHBOARD_COOKIE}`;

export function generateRawKey(type: KeyType, environment: Environment): string {
  if (type === "LEGACY") return `api_${randomToken(40)}`;
  return `${TYPE_PREFIX[type]}_${environment === "production" ? "live" : "test"}_${randomToken(40)}`;
}

export type ParsedKey = { type: KeyType; environment: Environment | null };

/** The type and (for non-legacy keys) environment a raw key claims; null if it is not a key at all. */
export function parseRawKey(raw: string): ParsedKey | null {
  const m = /^(sk|rk|pk)_(live|test)_[0-9A-Za-z]{20,100}$/.exec(raw);
  if (m) {
    const type: KeyType = m[1] === "sk" ? "SECRET" : m[1] === "rk" ? "RESTRICTED" : "PUBLISHABLE";
    return { type, environment: m[2] === "live" ? "production" : "development" };
  }
  if (/^api_[0-9A-Za-z]{20,100}$/.test(raw)) return { type: "LEGACY", environment: null };
  return null;
}
