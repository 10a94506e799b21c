/**
 * The service's Solana operator (SUBSCRIPTION_SOLANA_OPERATOR_KEY: base58 of the 64-byte secret key, as
 * `solana-keygen` writes it): the SPL delegate payers approve, the fee payer of every subscription
 * transaction, and the root of the keys derived from it here. A derived key is ed25519 from the seed
 * HMAC-SHA256(operator secret, label + inputs), so only this operator can sign for it, yet any worker can
 * recompute it from the inputs alone: no database, no state between calls.
 */
import { Keypair, type PublicKey } from "@solana/web3.js";
import { decodeBase58 } from "./base58";

export interface Operator {
  keypair: Keypair;
  hmac: CryptoKey;
}

let cached: { text: string; operator: Promise<Operator | null> } | null = null;

/** The operator of a key in its environment form; null when there is none or it is not a valid secret key. */
export function loadOperator(text: string | undefined): Promise<Operator | null> {
  if (!text) return Promise.resolve(null);
  if (cached?.text !== text) cached = { text, operator: parse(text) };
  return cached.operator;
}

async function parse(text: string): Promise<Operator | null> {
  const secret = decodeBase58(text);
  if (secret?.length !== 64) return null;
  let keypair: Keypair;
  try {
    keypair = Keypair.fromSecretKey(secret); // refuses a secret whose second half is not its public key
  } catch {
    return null;
  }
  const hmac = await crypto.subtle.importKey("raw", new Uint8Array(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  return { keypair, hmac };
}

async function derive(operator: Operator, label: string, inputs: string[]): Promise<Keypair> {
  const message = new TextEncoder().encode([label, ...inputs].join("\n"));
  return Keypair.fromSeed(new Uint8Array(await crypto.subtle.sign("HMAC", operator.hmac, message)));
}

/**
 * The account an operation with this reference creates: the subscription mint of an activation, the
 * marker of a charge. Creating an account needs its key's signature and fails when the account exists,
 * so the chain itself lets one transaction per reference succeed, however many are in flight.
 */
export const operationKeypair = (operator: Operator, reference: string): Promise<Keypair> =>
  derive(operator, "billing/subscription-operation/v1", [reference]);

/**
 * The key a subscription mint names as its freeze authority to record who it binds: the payer, the payee
 * and the token, hashed with the operator's secret. A charge recomputes it from its own parties and pulls
 * only when they match the activation's. Nothing ever freezes with it.
 */
export const partiesKey = async (operator: Operator, payer: PublicKey, payee: PublicKey, mint: PublicKey): Promise<PublicKey> =>
  (await derive(operator, "billing/subscription-parties/v1", [payer.toBase58(), payee.toBase58(), mint.toBase58()])).publicKey;

/** A reference as the adapter writes it on chain: 64 lower-case hex digits; null when it is not 32 bytes of hex. */
export function canonicalReference(reference: string): string | null {
  const match = /^(?:0x)?([0-9a-fA-F]{64})$/.exec(reference);
  return match ? match[1]!.toLowerCase() : null;
}
