/**
 * Turns the presented credential into a Principal, or a 401 with the spec's {error, code} body.
 * Credentials are read only from the `Authorization: Bearer` header, or for dashboard sessions the
 * `be_session` cookie; never from the query string (so they never land in access logs or Referer headers).
 *
 * CSRF, in this one place: a cookie is an ambient credential (the browser attaches it to requests another
 * site starts), so every write (POST, PUT, PATCH, DELETE) authenticated by the cookie must also carry the
 * session's CSRF token (src/auth/csrf.ts) in `X-CSRF-Token`, else 403
 * `csrf_failed`. A session presented in the Authorization header is not ambient (a script had to read it
 * and set the header), so it needs none. The cookie carries dashboard sessions only.
 */
import { sha256Hex } from "../lib/hash";
import { apiError } from "../lib/errors";
import type { Clock } from "../lib/clock";
import { timingSafeEqual } from "../lib/timing-safe";
import type { CredentialStore, KeyRecord } from "./credential-store";
import type { EmbedTokens } from "./embed-tokens";
import { DASHBOARD_COOKIE, DASHBOARD_SESSION_PREFIX, SECURE_DASHBOARD_COOKIE, EMBED_TOKEN_PREFIX, parseRawKey, type ParsedKey } from "./key-format";
import { KIND_BY_KEY_TYPE, type Principal } from "./kinds";
import { CSRF_HEADER, csrfTokenFor } from "./csrf";

export interface ResolveDeps {
  credentials: CredentialStore;
  clock: Clock;
  embedTokens: EmbedTokens;
}

const invalid = () => apiError("invalid_credentials", "Invalid credentials");

const BEARER = /^Bearer[ ]+(\S+)\s*$/i;

/** Methods that change state: a cookie-authenticated one needs the CSRF token. */
const WRITE_METHODS: ReadonlySet<string> = new Set(["POST", "PUT", "PATCH", "DELETE"]);

export interface Presented {
  raw: string;
  /** from the be_session cookie (ambient) rather than the Authorization header */
  fromCookie: boolean;
}

/**
 * The session cookie's value, or null: `__Host-be_session` (set when Secure), else `be_session` (set on plain-http
 * development, and by the service before the prefix). The prefixed one wins when both are sent, so a plain-named
 * cookie planted by another host never replaces the session the browser signed in to.
 */
export function sessionCookie(headers: Headers): string | null {
  const cookie = headers.get("cookie");
  let plain: string | null = null;
  if (cookie) {
    for (const part of cookie.split(";")) {
      const [name, ...rest] = part.trim().split("=");
      if (name === SECURE_DASHBOARD_COOKIE) return rest.join("=");
      if (name === DASHBOARD_COOKIE && plain === null) plain = rest.join("=");
    }
  }
  return plain;
}

export function presentedCredential(headers: Headers): Presented | null {
  const auth = headers.get("authorization");
  if (auth !== null) {
    const m = BEARER.exec(auth);
    if (!m) throw apiError("invalid_credentials", "Authorization header must be 'Bearer <credential>'");
    return { raw: m[1]!, fromCookie: false };
  }
  const cookie = sessionCookie(headers);
  if (cookie === null) return null;
  // Only a dashboard session may ride in the cookie: an API key is never an ambient credential.
  if (!cookie.startsWith(DASHBOARD_SESSION_PREFIX)) throw invalid();
  return { raw: cookie, fromCookie: true };
}

/**
 * Synchronous for a warm API key (the hot path pays no promise); a promise when something must be loaded.
 * `method` decides whether a cookie-borne session must prove its CSRF token.
 */
export function resolvePrincipal(deps: ResolveDeps, headers: Headers, method = "GET"): Principal | Promise<Principal> {
  const presented = presentedCredential(headers);
  if (!presented) throw apiError("missing_credentials", "Missing credentials: send 'Authorization: Bearer <credential>'");
  const raw = presented.raw;
  if (raw.startsWith(DASHBOARD_SESSION_PREFIX)) {
    const csrf = presented.fromCookie && WRITE_METHODS.has(method) ? (headers.get(CSRF_HEADER) ?? "") : null;
    return resolveSession(deps, raw, csrf);
  }
  if (raw.startsWith(EMBED_TOKEN_PREFIX) || raw.startsWith("eyJ")) return resolveEmbedToken(deps, raw);
  return resolveKey(deps, raw);
}

function checkKeyUsable(key: KeyRecord, now: number): void {
  if (key.revokedAt !== null) throw apiError("revoked_credentials", "API key has been revoked");
  if (key.expiresAt !== null && key.expiresAt <= now) throw apiError("expired_credentials", "API key has expired");
}

function resolveKey(deps: ResolveDeps, raw: string): Principal | Promise<Principal> {
  const parsed = parseRawKey(raw);
  if (!parsed) throw invalid();
  const key = deps.credentials.keyByRaw(raw);
  if (key instanceof Promise) return key.then((k) => keyPrincipal(deps, parsed, k));
  return keyPrincipal(deps, parsed, key);
}

// One principal per loaded key record, built once: a reloaded or evicted record is a new object, so
// nothing here outlives the credential cache's own freshness rules. Principals are never mutated.
const keyPrincipals = new WeakMap<KeyRecord, Principal>();

function keyPrincipal(deps: ResolveDeps, parsed: ParsedKey, key: KeyRecord | null): Principal {
  // The prefix must agree with what was stored (type and environment), or the key is not ours.
  if (!key || key.type !== parsed.type || (parsed.environment && parsed.environment !== key.environment)) throw invalid();
  // Revocation and expiry are checked on every request, against the clock.
  checkKeyUsable(key, deps.clock.now());
  let principal = keyPrincipals.get(key);
  if (!principal) {
    const everything = key.type === "LEGACY" || (key.type === "SECRET" && key.permissions.length === 0);
    principal = {
      kind: KIND_BY_KEY_TYPE[key.type],
      credentialId: key.id,
      teamId: key.teamId,
      environment: key.environment,
      permissions: everything ? null : key.permissions,
      roles: [],
    };
    keyPrincipals.set(key, principal);
  }
  return principal;
}

async function resolveEmbedToken(deps: ResolveDeps, raw: string): Promise<Principal> {
  const claims = await deps.embedTokens.verify(raw);
  if (!claims) throw invalid();
  const now = deps.clock.now();
  if (claims.exp * 1000 <= now) throw apiError("expired_credentials", "Access token has expired");
  // A token dies with the key that issued it.
  const issuer = await deps.credentials.keyById(claims.teamId, claims.environment, claims.issuedByKeyId);
  if (!issuer || issuer.teamId !== claims.teamId || issuer.environment !== claims.environment) throw invalid();
  checkKeyUsable(issuer, now);
  return {
    kind: "embed",
    credentialId: claims.jti,
    teamId: claims.teamId,
    environment: claims.environment,
    permissions: [],
    roles: [],
    companyId: claims.companyId,
    userId: claims.userId,
  };
}

const bytesOf = (text: string) => new TextEncoder().encode(text);

/** `csrf`: the X-CSRF-Token presented with a cookie-authenticated write ("" when absent); null when none is needed. */
async function resolveSession(deps: ResolveDeps, raw: string, csrf: string | null): Promise<Principal> {
  const session = await deps.credentials.sessionByHash(sha256Hex(raw));
  if (!session) throw invalid();
  if (session.revokedAt !== null || !session.memberActive) throw apiError("revoked_credentials", "Dashboard session has been revoked");
  if (session.expiresAt <= deps.clock.now()) throw apiError("expired_credentials", "Dashboard session has expired");
  if (csrf !== null) {
    // Compared in constant time: nothing is learnt from timing.
    const ok = csrf !== "" && timingSafeEqual(bytesOf(csrf), bytesOf(csrfTokenFor(raw)));
    if (!ok) throw apiError("csrf_failed", "Cookie-authenticated writes need the session's X-CSRF-Token header");
  }
  return {
    kind: "dashboard",
    credentialId: session.id,
    teamId: session.teamId,
    environment: session.environment,
    permissions: [],
    roles: session.roles,
    operatorId: session.operatorId,
    memberId: session.memberId,
  };
}
