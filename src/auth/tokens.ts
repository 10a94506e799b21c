/**
 * Embed access tokens, stateless and signed with TOKEN_SIGNING_SECRET:
 *   be_tok_<payload>.<hmac>   minted by POST /api-keys/tokens (60 to 900 s, one company)
 *   <JWT, HS256>              minted by POST /access-tokens (customer session: one company and one user)
 * Both are company-scoped browser credentials. Each names the key that issued it, and stops working
 * when that key is revoked or expires.
 */
import { base64url, fromBase64url, hmacSha256, signPayload, verifyPayload } from "../lib/hash";
import { timingSafeEqual } from "../lib/timing-safe";
import { EMBED_TOKEN_PREFIX } from "./key-format";
import type { Environment } from "./kinds";

export interface EmbedClaims {
  jti: string;
  teamId: string;
  environment: Environment;
  companyId: string;
  userId?: string;
  issuedByKeyId: string;
  /** unix seconds */
  exp: number;
}

const PURPOSE = "embed-token";
const JWT_ISSUER = "billing-entitlements";

export function signEmbedToken(secret: string, claims: EmbedClaims): string {
  return EMBED_TOKEN_PREFIX + signPayload(secret, PURPOSE, claims);
}

export function signSessionJwt(secret: string, claims: EmbedClaims, nowSeconds: number): string {
  const header = base64url(JSON.stringify({ alg: "HS256", typ: "JWT" }));
  const payload = base64url(
    JSON.stringify({
      iss: JWT_ISSUER,
      aud: "embed",
      sub: claims.userId,
      jti: claims.jti,
      tid: claims.teamId,
      env: claims.environment,
      cid: claims.companyId,
      kid: claims.issuedByKeyId,
      iat: nowSeconds,
      exp: claims.exp,
    }),
  );
  return `${header}.${payload}.${base64url(hmacSha256(secret, `${header}.${payload}`))}`;
}

/** Claims of a well-formed, correctly signed token (expiry is the caller's check); null otherwise. */
export function verifyEmbedToken(secret: string, raw: string): EmbedClaims | null {
  const claims = raw.startsWith(EMBED_TOKEN_PREFIX) ? verifyPayload<EmbedClaims>(secret, PURPOSE, raw.slice(EMBED_TOKEN_PREFIX.length)) : verifyJwt(secret, raw);
  return claims && wellTyped(claims) ? claims : null;
}

// A signed token with a missing or non-numeric `exp` must not become a token that never expires.
function wellTyped(c: EmbedClaims): boolean {
  const text = (v: unknown) => typeof v === "string" && v.length > 0;
  return (
    text(c.jti) && text(c.teamId) && text(c.companyId) && text(c.issuedByKeyId) &&
    (c.environment === "development" || c.environment === "production") &&
    Number.isSafeInteger(c.exp) && (c.userId === undefined || text(c.userId))
  );
}

function verifyJwt(secret: string, raw: string): EmbedClaims | null {
  const parts = raw.split(".");
  if (parts.length !== 3) return null;
  const [header, payload, signature] = parts as [string, string, string];
  try {
    const h = JSON.parse(new TextDecoder().decode(fromBase64url(header)));
    // Only our own algorithm: never "none", never an asymmetric algorithm keyed with our secret.
    if (h.alg !== "HS256") return null;
    if (!timingSafeEqual(fromBase64url(signature), hmacSha256(secret, `${header}.${payload}`))) return null;
    const p = JSON.parse(new TextDecoder().decode(fromBase64url(payload)));
    if (p.iss !== JWT_ISSUER || p.aud !== "embed") return null;
    return { jti: p.jti, teamId: p.tid, environment: p.env, companyId: p.cid, userId: p.sub, issuedByKeyId: p.kid, exp: p.exp };
  } catch {
    return null;
  }
}
