/**
 * Embed access tokens, stateless and signed with TOKEN_SIGNING_SECRET:
 *   be_tok_<payload>.<hmac>   minted by POST /api-keys/tokens (60 to 900 s, one company)
 *   <JWT, HS256>              minted by POST /access-tokens (customer session: one company and one user)
 * Both are company-scoped browser credentials. Each names the key that issued it, and stops working
 * when that key is revoked or expires.
 */
import { errors, jwtVerify, SignJWT, type JWTPayload } from "jose";
import { fromBase64url, signPayload, verifyPayload } from "../lib/hash";
import { EMBED_TOKEN_PREFIX } from "./key-format";
import type { Environment } from "../lib/tenant";
import type { TokenKey, TokenKeys } from "./token-keys";

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
const JWT_AUDIENCE = "embed";

export function signEmbedToken(secret: string, claims: EmbedClaims): string {
  return EMBED_TOKEN_PREFIX + signPayload(secret, PURPOSE, claims);
}

export function signSessionJwt(key: TokenKey, claims: EmbedClaims, nowSeconds: number): Promise<string> {
  const payload = {
    iss: JWT_ISSUER,
    aud: JWT_AUDIENCE,
    sub: claims.userId,
    jti: claims.jti,
    tid: claims.teamId,
    env: claims.environment,
    cid: claims.companyId,
    kid: claims.issuedByKeyId,
    iat: nowSeconds,
    exp: claims.exp,
  };
  return new SignJWT(payload).setProtectedHeader({ alg: "HS256", typ: "JWT", kid: key.kid }).sign(key.cryptoKey);
}

/**
 * Claims of a well-formed token signed by an accepted key; null otherwise. Expiry is the caller's check
 * (an expired but genuine token is returned, so the caller can say "expired" rather than "invalid").
 */
export async function verifyEmbedToken(keys: TokenKeys, raw: string, nowMs: number): Promise<EmbedClaims | null> {
  const claims = raw.startsWith(EMBED_TOKEN_PREFIX) ? verifyBeTok(keys, raw.slice(EMBED_TOKEN_PREFIX.length)) : await verifyJwt(keys, raw, nowMs);
  return claims && wellTyped(claims) ? claims : null;
}

// be_tok_ tokens carry no key id (their format predates rotation): each accepted secret is tried in turn.
function verifyBeTok(keys: TokenKeys, signed: string): EmbedClaims | null {
  for (const key of keys.accepted) {
    const claims = verifyPayload<EmbedClaims>(key.secret, PURPOSE, signed);
    if (claims) return claims;
  }
  return null;
}

// A signed token with a missing or non-numeric `exp` must not become a token that never expires.
function wellTyped(c: EmbedClaims): boolean {
  const text = (v: unknown) => typeof v === "string" && v.length > 0;
  return (
    text(c.jti) &&
    text(c.teamId) &&
    text(c.companyId) &&
    text(c.issuedByKeyId) &&
    (c.environment === "development" || c.environment === "production") &&
    Number.isSafeInteger(c.exp) &&
    (c.userId === undefined || text(c.userId))
  );
}

const toClaims = (p: JWTPayload): EmbedClaims =>
  ({ jti: p.jti, teamId: p.tid, environment: p.env, companyId: p.cid, userId: p.sub, issuedByKeyId: p.kid, exp: p.exp }) as EmbedClaims;

async function verifyJwt(keys: TokenKeys, raw: string, nowMs: number): Promise<EmbedClaims | null> {
  // jose decodes leniently (padding, stray bits); a credential has one spelling, so every segment must be canonical.
  if (!isCanonicalJws(raw)) return null;
  try {
    const { payload } = await jwtVerify(raw, (header) => keyFor(keys, header.kid), {
      // Only our own algorithm: never "none", never HS512 or an asymmetric algorithm keyed with our secret.
      algorithms: ["HS256"],
      typ: "JWT",
      issuer: JWT_ISSUER,
      audience: JWT_AUDIENCE,
      currentDate: new Date(nowMs),
    });
    return toClaims(payload);
  } catch (error) {
    // jose checks expiry only after the signature, so this payload is genuine.
    if (error instanceof errors.JWTExpired) return toClaims(error.payload);
    return null;
  }
}

function keyFor(keys: TokenKeys, kid: string | undefined): CryptoKey {
  const key = keys.byKid(kid);
  if (!key) throw new errors.JWKSNoMatchingKey();
  return key.cryptoKey;
}

function isCanonicalJws(raw: string): boolean {
  const parts = raw.split(".");
  if (parts.length !== 3) return false;
  try {
    for (const part of parts) fromBase64url(part);
    return true;
  } catch {
    return false;
  }
}
