/**
 * Endpoint signing secrets: `whsec_` + 32 random bytes in base64 (what the standardwebhooks libraries read).
 * They must be read back to sign each attempt, so they are stored sealed (AES-GCM, src/lib/sealing.ts) under
 * a key derived from TOKEN_SIGNING_SECRET with a purpose of their own, never hashed and never in clear.
 * During a rotation of TOKEN_SIGNING_SECRET, a secret sealed under the previous one still opens with
 * TOKEN_SIGNING_SECRET_PREVIOUS, so keep that set until every endpoint's secret has been rotated (docs/webhooks.md): a rotation seals the new secret under the current key.
 */
import { seal, unseal } from "../../../lib/sealing";

const PURPOSE = "webhook-endpoint-secret";
const SECRET_BYTES = 32;

export interface SealingKeys {
  tokenSigningSecret: string;
  previousTokenSigningSecret?: string;
}

export function generateSecret(): string {
  return `whsec_${Buffer.from(crypto.getRandomValues(new Uint8Array(SECRET_BYTES))).toString("base64")}`;
}

export const sealSecret = (keys: SealingKeys, secret: string) => seal(keys.tokenSigningSecret, PURPOSE, new TextEncoder().encode(secret));

export async function openSecret(keys: SealingKeys, sealed: Uint8Array<ArrayBuffer>): Promise<string> {
  const opened = await unseal(keys.tokenSigningSecret, PURPOSE, sealed).catch((error) =>
    keys.previousTokenSigningSecret ? unseal(keys.previousTokenSigningSecret, PURPOSE, sealed) : Promise.reject(error),
  );
  return new TextDecoder().decode(opened);
}
