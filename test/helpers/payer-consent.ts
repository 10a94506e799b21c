/**
 * The payer's side of an activation's consent (src/modules/subscriptions/activation/payer-consent.ts), signed as the wallets
 * sign: a Solana keypair's ed25519 signature of the text's bytes (what `signMessage` returns), a Stellar
 * keypair's SEP-53 signature made by stellar-sdk's own `Keypair.signMessage` (not by our verifier's code).
 * EVM consents (EIP-712) are signed by the anvil bed (anvil-subscriptions.ts).
 */
import type { Keypair as SolanaKeypair } from "@solana/web3.js";
import type { Keypair as StellarKeypair } from "@stellar/stellar-sdk";
import { consentMessage, type ConsentTerms, type PayerConsent } from "../../src/modules/subscriptions/activation/payer-consent";

/** A wallet that can sign a text message. */
export interface MessageSigner {
  address: string;
  signMessage(message: string): Promise<Uint8Array>;
}

const base64url = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64url");

export function solanaSigner(keypair: SolanaKeypair): MessageSigner {
  return {
    address: keypair.publicKey.toBase58(),
    async signMessage(message) {
      // A Solana secret key is the 32-byte seed followed by the public key.
      const jwk = { kty: "OKP", crv: "Ed25519", d: base64url(keypair.secretKey.slice(0, 32)), x: base64url(keypair.publicKey.toBytes()) };
      const key = await crypto.subtle.importKey("jwk", jwk, { name: "Ed25519" }, false, ["sign"]);
      return new Uint8Array(await crypto.subtle.sign("Ed25519", key, new TextEncoder().encode(message)));
    },
  };
}

export function stellarSigner(keypair: StellarKeypair): MessageSigner {
  return { address: keypair.publicKey(), signMessage: async (message) => keypair.signMessage(message) };
}

/** A new consent nonce: 24 random characters of the allowed alphabet. */
export const newNonce = (): string => Buffer.from(crypto.getRandomValues(new Uint8Array(18))).toString("base64url");

/**
 * The consent `signer` gives to `terms` (its own address as the payer unless `terms` says otherwise), issued at
 * `issuedAt`, under `nonce` (a new one by default).
 */
export async function signConsent(
  signer: MessageSigner,
  terms: Omit<ConsentTerms, "payer"> & { payer?: string },
  issuedAt: Date,
  nonce = newNonce(),
): Promise<PayerConsent> {
  const iso = issuedAt.toISOString();
  const signature = await signer.signMessage(consentMessage({ payer: signer.address, ...terms }, iso, nonce));
  return { issuedAt: iso, nonce, signature: Buffer.from(signature).toString("base64") };
}
