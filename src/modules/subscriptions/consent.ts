/**
 * The payer's consent to pay this team, where the chain's own authorization cannot say it (issue 21).
 *
 * On EVM the payer's authorization in the subscription contract names the payee (the team's settlement
 * wallet): nobody else can pull through it. A Solana SPL delegate and a Stellar SAC allowance name only the
 * service's operator, which every team shares, so without more any team could activate a subscription on a
 * wallet that approved the operator for another team and pull its money to its own wallet. There, activation
 * takes the payer's signature of a text naming the payee: `payerConsent: {issuedAt, signature}`, where the
 * text is the one `consentMessage` writes from what the activation resolved (payer, payee, network, token,
 * on-chain plan id, price and interval) and `issuedAt`, and the signature is base64 of the 64-byte ed25519
 * signature in the family's convention (message-signatures.ts). The service rebuilds the text itself, so a
 * consent given for any other payee, plan, network or payer simply does not verify.
 *
 * `issuedAt` must be within the last CONSENT_WINDOW_MS of the service's clock (and at most CLOCK_SKEW_MS
 * ahead), so a consent cannot be kept and used later. A retry of an activation after that signs again.
 */
import { type MessageSigning, SOLANA_MESSAGE_SIGNING, STELLAR_MESSAGE_SIGNING, verifySignedMessage } from "../../chains/message-signatures";
import type { ChainFamily } from "../../chains/types";
import { apiError } from "../../lib/errors";
import { formatFixed, MICRO_DECIMALS } from "../../lib/money";
import type { Interval } from "../../lib/period";

export interface PayerConsent {
  /** ISO 8601 in UTC, as written in the signed text */
  issuedAt: string;
  /** base64 of the 64-byte ed25519 signature */
  signature: string;
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
}

export const CONSENT_WINDOW_MS = 10 * 60_000;
export const CLOCK_SKEW_MS = 60_000;

/**
 * The convention a payer's consent is signed in, per family; null where the chain's own authorization names
 * the payee (EVM's contract), so there is nothing for a consent to add and none is taken.
 */
const CONSENT_SIGNING: Record<ChainFamily, MessageSigning | null> = {
  evm: null,
  solana: SOLANA_MESSAGE_SIGNING,
  stellar: STELLAR_MESSAGE_SIGNING,
};

/** Whether the chain's own approval names the payee (EVM); elsewhere it names only our operator, shared by every team. */
export const approvalNamesPayee = (family: ChainFamily): boolean => CONSENT_SIGNING[family] === null;

const PERIOD_WORD: Record<Interval, string> = { monthly: "month", yearly: "year" };

/** "10", "9.99": the price as a person reads it (exact; only trailing zeros dropped). */
const readablePrice = (micro: bigint) => formatFixed(micro, MICRO_DECIMALS).replace(/0+$/, "").replace(/\.$/, "");

/**
 * The text the payer signs: UTF-8, these lines joined by "\n", no trailing newline. Every value in it is an
 * address, a registry id, a plan id (A-Z a-z 0-9 _ . : -) or a number, none of which can hold a newline, so
 * one text names one set of terms.
 */
export function consentMessage(terms: ConsentTerms, issuedAt: string): string {
  return [
    "Subscription payment authorization",
    `Payer: ${terms.payer}`,
    `Payee: ${terms.payee}`,
    `Network: ${terms.networkId}`,
    `Token: ${terms.tokenSymbol}`,
    `Plan: ${terms.onchainPlanId}`,
    `Price: ${readablePrice(terms.price)} ${terms.currency} per ${PERIOD_WORD[terms.billingPeriod]}, before tax and discounts`,
    `Issued At: ${issuedAt}`,
  ].join("\n");
}

const invalid = (field: string, message: string) => apiError("validation_failed", "Validation failed", { [field]: message });

/** Throws a 400 naming the field unless the activation carries the consent its family needs. */
export async function assertPayerConsent(terms: ConsentTerms, consent: PayerConsent | null, now: Date): Promise<void> {
  const signing = CONSENT_SIGNING[terms.family];
  if (!signing) {
    if (consent) throw invalid("body.payerConsent", `Not used on ${terms.family} networks: the payer's authorization on chain names the payee`);
    return;
  }
  const sign = (issuedAt: string) =>
    `the payer's ${signing.convention} signature of this text (UTF-8, lines joined by \\n, no trailing newline), its Issued At the time of signing:\n${consentMessage(terms, issuedAt)}`;
  if (!consent)
    throw invalid(
      "body.payerConsent",
      `Required on ${terms.networkId}, where autopay names the service's operator and not the payee: {issuedAt, signature}, ${sign(now.toISOString())}`,
    );

  const issued = Date.parse(consent.issuedAt);
  if (!(issued >= now.getTime() - CONSENT_WINDOW_MS && issued <= now.getTime() + CLOCK_SKEW_MS))
    throw invalid(
      "body.payerConsent.issuedAt",
      `Expected a time within the last ${CONSENT_WINDOW_MS / 60_000} minutes of the service's clock (${now.toISOString()}) and at most ${CLOCK_SKEW_MS / 60_000} ahead; sign the text again`,
    );
  const signature = Uint8Array.from(atob(consent.signature), (c) => c.charCodeAt(0));
  if (!(await verifySignedMessage(signing, terms.payer, consentMessage(terms, consent.issuedAt), signature)))
    throw invalid("body.payerConsent.signature", `Expected ${terms.payer}'s signature: ${sign(consent.issuedAt)}`);
}
