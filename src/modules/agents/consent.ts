/**
 * The funding wallet's consent to one team's top-ups (docs/agents.md#funding-mandate). The on-chain approval (an
 * ERC-20 allowance, an SPL delegation) names only the service's operator, which every team shares: without more,
 * any team could register a wallet that approved the operator for another and send its money to its own targets.
 * So registering a funding mandate also takes the wallet's signature of a text naming the team, the environment,
 * the network, the token, the lifetime total (the mandate's cap, whatever allowance the chain shows) and the daily
 * cap, amounts in token units with whole tokens beside them: EIP-191 `personal_sign` on EVM, ed25519 over the text's bytes on Solana
 * (what wallets' `signMessage` signs). The service rebuilds the text from what it registers, so a consent given to
 * another team, network, token, total or cap does not verify; `issuedAt` must be recent.
 */
import { SOLANA_MESSAGE_SIGNING, verifyEvmSignedMessage, verifySignedMessage } from "../../chains/message-signatures";
import { apiError } from "../../lib/errors";
import { tokenLocator, type NetworkConfig, type TokenConfig } from "../../lib/networks";
import type { Tenant } from "../../lib/tenant";
import { CLOCK_SKEW_MS, CONSENT_WINDOW_MS } from "../subscriptions/activation/payer-consent";

export interface FundingConsent {
  issuedAt: string;
  nonce: string;
  /** EVM: 0x + 65 bytes hex; Solana: base64 of the 64-byte ed25519 signature */
  signature: string;
}

export interface FundingTerms {
  tenant: Tenant;
  network: NetworkConfig;
  token: TokenConfig;
  wallet: string;
  dailyCap: bigint;
  /** the most all top-ups drawn through the mandate may ever send */
  total: bigint;
}

const BASE64_SIGNATURE = /^[A-Za-z0-9+/]{86}==$/;

/**
 * The text the funding wallet signs: UTF-8, these lines joined by "\n", no trailing newline. Every value is an id,
 * an address, a number, a nonce or a timestamp: none holds a newline, so one text names one set of terms.
 */
export function fundingConsentMessage(terms: FundingTerms, issuedAt: string, nonce: string): string {
  return [
    "Auto-topup funding authorization",
    `Team: ${terms.tenant.teamId}`,
    `Environment: ${terms.tenant.environment}`,
    `Network: ${terms.network.id}`,
    `Token: ${terms.token.symbol} ${tokenLocator(terms.token)}`,
    `Funding wallet: ${terms.wallet}`,
    `Total: ${readable(terms.total, terms.token)}`,
    `Daily cap: ${readable(terms.dailyCap, terms.token)}`,
    `Nonce: ${nonce}`,
    `Issued At: ${issuedAt}`,
  ].join("\n");
}

/**
 * Token units with what they are in whole tokens beside them, so a funder reads what it signs:
 * "100000000 (100 USDC at 6 decimals)". Exact: the decimal point is placed in the digits, no float.
 */
export function readable(units: bigint, token: Pick<TokenConfig, "symbol" | "decimals">): string {
  const digits = units.toString().padStart(token.decimals + 1, "0");
  const whole = digits.slice(0, digits.length - token.decimals);
  const fraction = digits.slice(digits.length - token.decimals).replace(/0+$/, "");
  return `${units} (${whole}${fraction ? `.${fraction}` : ""} ${token.symbol} at ${token.decimals} decimals)`;
}

const invalid = (field: string, message: string) => apiError("validation_failed", "Validation failed", { [field]: message });

/** A 400 naming the field unless `consent` is the funding wallet's recent signature of these very terms. */
export async function assertFundingConsent(terms: FundingTerms, consent: FundingConsent, now: Date): Promise<void> {
  const convention = terms.network.family === "evm" ? "EIP-191 personal_sign (0x hex)" : "ed25519 signMessage (base64)";
  const expected = (issuedAt: string) =>
    `Expected ${terms.wallet}'s ${convention} signature of this text (UTF-8, lines joined by \\n, no trailing newline):\n${fundingConsentMessage(terms, issuedAt, consent.nonce)}`;
  const issued = Date.parse(consent.issuedAt);
  if (!(issued >= now.getTime() - CONSENT_WINDOW_MS && issued <= now.getTime() + CLOCK_SKEW_MS))
    throw invalid(
      "body.consent.issuedAt",
      `Expected a time within the last ${CONSENT_WINDOW_MS / 60_000} minutes of the service's clock (${now.toISOString()}) and at most ${CLOCK_SKEW_MS / 60_000} ahead; sign the text again`,
    );
  const message = fundingConsentMessage(terms, consent.issuedAt, consent.nonce);
  const verified =
    terms.network.family === "evm"
      ? await verifyEvmSignedMessage(terms.wallet, message, consent.signature)
      : BASE64_SIGNATURE.test(consent.signature) &&
        (await verifySignedMessage(
          SOLANA_MESSAGE_SIGNING,
          terms.wallet,
          message,
          Uint8Array.from(atob(consent.signature), (c) => c.charCodeAt(0)),
        ));
  if (!verified) throw invalid("body.consent.signature", expected(consent.issuedAt));
}
