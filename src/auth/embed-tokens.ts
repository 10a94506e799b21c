/**
 * Signing and verifying embed tokens with the deployment's keys, remembering what was verified.
 * Embed tokens authenticate every /check a browser makes, and jose's asynchronous HS256 verification costs
 * tens of microseconds, several times the rest of a warm /check. A token's verdict cannot change while the
 * process's keys stay the same (expiry and the issuing key's revocation are checked on every request by
 * the caller), so each distinct token is verified once and then answered from memory.
 */
import type { Clock } from "../lib/clock";
import { LoadingCache } from "../lib/loading-cache";
import { signEmbedToken, signSessionJwt, verifyEmbedToken, type EmbedClaims } from "./tokens";
import type { TokenKeys } from "./token-keys";

// Bounded: the oldest verdicts go first. Refusals are kept briefly, so replaying one forged token costs nothing.
const MAX_ENTRIES = 20_000;
const REFUSAL_TTL_MS = 5_000;

export class EmbedTokens {
  private readonly verified: LoadingCache<EmbedClaims>;

  constructor(
    readonly keys: TokenKeys,
    clock: Clock,
  ) {
    this.verified = new LoadingCache((raw) => verifyEmbedToken(keys, raw, clock.now()), clock, {
      maxEntries: MAX_ENTRIES,
      negativeTtlMs: REFUSAL_TTL_MS,
    });
  }

  /** `be_tok_…` for POST /api-keys/tokens, a session JWT for POST /access-tokens; always with the current key. */
  sign(kind: "embed" | "session", claims: EmbedClaims, nowSeconds: number): string | Promise<string> {
    return kind === "embed" ? signEmbedToken(this.keys.current.secret, claims) : signSessionJwt(this.keys.current, claims, nowSeconds);
  }

  /** The claims of a genuine token (possibly expired: the caller checks), or null. */
  verify(raw: string): EmbedClaims | null | Promise<EmbedClaims | null> {
    return this.verified.lookup(raw);
  }
}
