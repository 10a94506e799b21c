/**
 * The payer's consent to one subscription on Solana and Stellar, where the chain's own authorization cannot say it.
 *
 * A Solana SPL delegate and a Stellar SAC allowance name only the service's operator, which every team shares, so
 * without more any team, or any company of a team, could activate a subscription on a wallet that approved the
 * operator for another and pull its money. There, activation takes the payer's signature of a text naming the
 * payee, the plan and the company paid for: `payerConsent: {issuedAt, nonce, signature}`, where the text is the one
 * `consentMessage` writes from what the activation resolved (payer, payee, network, token, on-chain plan id,
 * price and interval, company) with `issuedAt` and `nonce`, and the signature is base64 of the 64-byte ed25519
 * signature in the family's convention (src/chains/message-signatures.ts). The service rebuilds the text itself, so a consent
 * given for any other payee, plan, network, payer or company simply does not verify.
 *
 * `issuedAt` must be within the last CONSENT_WINDOW_MS of the service's clock (and at most CLOCK_SKEW_MS ahead),
 * and the nonce is spent by the activation it opens (payer_consents, a unique key): a consent opens one
 * subscription, once. EVM consents are EIP-712 typed data (evm-consent.ts).
 */
import { type MessageSigning, SOLANA_MESSAGE_SIGNING, STELLAR_MESSAGE_SIGNING, verifySignedMessage } from "../../../chains/message-signatures";
import type { ChainFamily } from "../../../chains/types";
import { apiError } from "../../../lib/errors";
import { formatFixed, MICRO_DECIMALS } from "../../../lib/money";
import type { Interval } from "../../../lib/period";

/** `payerConsent` as sent: the fields of the network's family (../schemas.ts documents each). */
export interface PayerConsent {
  /** Solana, Stellar: base64 of the 64-byte ed25519 signature; EVM: 0x hex of the EIP-712 signature */
  signature: string;
  /** Solana, Stellar: ISO 8601 in UTC, as written in the signed text */
  issuedAt?: string;
  /** Solana, Stellar: the payer's one-time value, as written in the signed text */
  nonce?: string;
  /** EVM: the typed data's fields the service cannot know (evm-consent.ts) */
  salt?: string;
  periodAllowance?: string;
  periodSeconds?: number;
  cap?: string;
  end?: number;
}

/** What the consent names; all of it comes from the activation's resolved terms, none from the client's text. */
export interface ConsentTerms {
  family: ChainFamily;
  payer: string;
  payee: string;
  networkId: string;
  tokenSymbol: string;
  /** the on-chain plan id the activation names */
  onchainPlanId: string;
  /** micro-units of `currency` per period */
  price: bigint;
  currency: string;
  billingPeriod: Interval;
  /** the company paid for, as consents name it (company-key.ts) */
  company: string;
}

export const CONSENT_WINDOW_MS = 10 * 60_000;
export const CLOCK_SKEW_MS = 60_000;

/** The convention a payer's consent text is signed in, per family; null on EVM, whose consent is EIP-712 typed data. */
const CONSENT_SIGNING: Record<ChainFamily, MessageSigning | null> = {
  evm: null,
  solana: SOLANA_MESSAGE_SIGNING,
  stellar: STELLAR_MESSAGE_SIGNING,
};

/**
 * Whether the chain's own approval belongs to one subscription and names its payee (EVM, one authorization per
 * subscription token); elsewhere it is one allowance per payer account that names only our operator, shared by every
 * team, so one account can pay one live subscription.
 */
export const approvalNamesPayee = (family: ChainFamily): boolean => CONSENT_SIGNING[family] === null;

const PERIOD_WORD: Record<Interval, string> = { monthly: "month", yearly: "year" };

/** "10", "9.99": the price as a person reads it (exact; only trailing zeros dropped). */
const readablePrice = (micro: bigint) => formatFixed(micro, MICRO_DECIMALS).replace(/0+$/, "").replace(/\.$/, "");

/**
 * The text the payer signs: UTF-8, these lines joined by "\n", no trailing newline. Every value in it is an
 * address, a registry id, a plan id (A-Z a-z 0-9 _ . : -), a nonce or a number, none of which can hold a newline,
 * and the company is written as a JSON string (a newline in it is escaped), so one text names one set of terms.
 */
export function consentMessage(terms: ConsentTerms, issuedAt: string, nonce: string): string {
  return [
    "Subscription payment authorization",
    `Payer: ${terms.payer}`,
    `Payee: ${terms.payee}`,
    `Network: ${terms.networkId}`,
    `Token: ${terms.tokenSymbol}`,
    `Plan: ${terms.onchainPlanId}`,
    `Price: ${readablePrice(terms.price)} ${terms.currency} per ${PERIOD_WORD[terms.billingPeriod]}, before tax and discounts`,
    `Company: ${JSON.stringify(terms.company)}`,
    `Nonce: ${nonce}`,
    `Issued At: ${issuedAt}`,
  ].join("\n");
}

const invalid = (field: string, message: string) => apiError("validation_failed", "Validation failed", { [field]: message });

/** The nonce the consent spends, or a 400 naming the field unless the activation carries a consent that verifies. */
export async function assertPayerConsent(terms: ConsentTerms, consent: PayerConsent | null, now: Date): Promise<string> {
  const signing = CONSENT_SIGNING[terms.family];
  if (!signing) throw new Error(`${terms.family} consents are EIP-712 typed data (evm-consent.ts)`);
  const sign = (issuedAt: string, nonce: string) =>
    `the payer's ${signing.convention} signature of this text (UTF-8, lines joined by \\n, no trailing newline), its Nonce a new value of 16 to 64 characters A-Z a-z 0-9 _ -, its Issued At the time of signing:\n${consentMessage(terms, issuedAt, nonce)}`;
  if (!consent?.issuedAt || !consent.nonce)
    throw invalid(
      consent ? `body.payerConsent.${consent.issuedAt ? "nonce" : "issuedAt"}` : "body.payerConsent",
      `Required on ${terms.networkId}, where autopay names the service's operator and not the payee: {issuedAt, nonce, signature}, ${sign(now.toISOString(), "<nonce>")}`,
    );
  if (!NONCE.test(consent.nonce)) throw invalid("body.payerConsent.nonce", "Expected 16 to 64 characters A-Z a-z 0-9 _ -");
  const issued = Date.parse(consent.issuedAt);
  if (!(issued >= now.getTime() - CONSENT_WINDOW_MS && issued <= now.getTime() + CLOCK_SKEW_MS))
    throw invalid(
      "body.payerConsent.issuedAt",
      `Expected a time within the last ${CONSENT_WINDOW_MS / 60_000} minutes of the service's clock (${now.toISOString()}) and at most ${CLOCK_SKEW_MS / 60_000} ahead; sign the text again`,
    );
  const signature = BASE64_SIGNATURE.test(consent.signature) ? Uint8Array.from(atob(consent.signature), (c) => c.charCodeAt(0)) : null;
  if (!signature || !(await verifySignedMessage(signing, terms.payer, consentMessage(terms, consent.issuedAt, consent.nonce), signature)))
    throw invalid("body.payerConsent.signature", `Expected ${terms.payer}'s signature: ${sign(consent.issuedAt, consent.nonce)}`);
  return consent.nonce;
}

const NONCE = /^[A-Za-z0-9_-]{16,64}$/;
const BASE64_SIGNATURE = /^[A-Za-z0-9+/]{86}==$/;
