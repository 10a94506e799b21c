/**
 * Turns the presented credential into a Principal, or a 401 with the spec's {error, code} body.
 * Credentials are read only from the `Authorization: Bearer` header, or for dashboard sessions the
 * `be_session` cookie; never from the query string (so they never land in access logs or Referer headers).
 */
import { sha256Hex } from "../lib/hash";
import { apiError } from "../lib/errors";
import type { Clock } from "../lib/clock";
import type { CredentialStore, KeyRecord } from "./credential-store";
import type { EmbedTokens } from "./embed-tokens";
import { DASHBOARD_COOKIE, DASHBOARD_SESSION_PREFIX, EMBED_TOKEN_PREFIX, parseRawKey, type ParsedKey } from "./key-format";
import { KIND_BY_KEY_TYPE, type Principal } from "./kinds";

export interface ResolveDeps {
  credentials: CredentialStore;
  clock: Clock;
  embedTokens: EmbedTokens;
}

const invalid = () => apiError("invalid_credentials", "Invalid credentials");

const BEARER = /^Bearer[ ]+(\S+)\s*$/i;

export function presentedCredential(headers: Headers): string | null {
  const auth = headers.get("authorization");
  if (auth !== null) {
    const m = BEARER.exec(auth);
    if (!m) throw apiError("invalid_credentials", "Authorization header must be 'Bearer <credential>'");
    return m[1]!;
  }
  const cookie = headers.get("cookie");
  if (cookie) {
    for (const part of cookie.split(";")) {
      const [name, ...rest] = part.trim().split("=");
      if (name === DASHBOARD_COOKIE) return rest.join("=");
    }
  }
  return null;
}

/** Synchronous for a warm API key (the hot path pays no promise); a promise when something must be loaded. */
export function resolvePrincipal(deps: ResolveDeps, headers: Headers): Principal | Promise<Principal> {
  const raw = presentedCredential(headers);
  if (!raw) throw apiError("missing_credentials", "Missing credentials: send 'Authorization: Bearer <credential>'");
  if (raw.startsWith(DASHBOARD_SESSION_PREFIX)) return resolveSession(deps, raw);
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

async function resolveSession(deps: ResolveDeps, raw: string): Promise<Principal> {
  const session = await deps.credentials.sessionByHash(sha256Hex(raw));
  if (!session) throw invalid();
  if (session.revokedAt !== null) throw apiError("revoked_credentials", "Dashboard session has been revoked");
  if (session.expiresAt <= deps.clock.now()) throw apiError("expired_credentials", "Dashboard session has expired");
  return {
    kind: "dashboard",
    credentialId: session.id,
    teamId: session.teamId,
    environment: session.environment,
    permissions: [],
    roles: session.roles,
  };
}
