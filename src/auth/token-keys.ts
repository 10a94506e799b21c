/**
 * The keys that sign embed credentials: TOKEN_SIGNING_SECRET, and during a rotation
 * TOKEN_SIGNING_SECRET_PREVIOUS, still accepted so tokens minted before the switch live out their TTL.
 * A session JWT names its key in the `kid` header; the id is derived from the secret (the first 8 bytes of its
 * SHA-256, base64url), so every instance sharing a secret agrees on it with nothing to configure or store.
 */
import { base64url } from "../lib/hash";

export interface TokenKey {
  kid: string;
  secret: string;
  /** HMAC-SHA-256 key for jose, imported once rather than on every verification */
  cryptoKey: CryptoKey;
}

export function keyIdOf(secret: string): string {
  const digest = new Bun.CryptoHasher("sha256").update(secret).digest();
  return base64url(new Uint8Array(digest.buffer, digest.byteOffset, 8));
}

async function tokenKey(secret: string): Promise<TokenKey> {
  const cryptoKey = await crypto.subtle.importKey("raw", new TextEncoder().encode(secret), { name: "HMAC", hash: "SHA-256" }, false, [
    "sign",
    "verify",
  ]);
  return { kid: keyIdOf(secret), secret, cryptoKey };
}

export class TokenKeys {
  private constructor(
    /** signs every new token */
    readonly current: TokenKey,
    /** current first, then the previous secret while a rotation is under way */
    readonly accepted: readonly TokenKey[],
  ) {}

  static async create(currentSecret: string, previousSecret?: string): Promise<TokenKeys> {
    const current = await tokenKey(currentSecret);
    const previous = previousSecret && previousSecret !== currentSecret ? await tokenKey(previousSecret) : undefined;
    return new TokenKeys(current, previous ? [current, previous] : [current]);
  }

  byKid(kid: string | undefined): TokenKey | undefined {
    return this.accepted.find((key) => key.kid === kid);
  }
}
