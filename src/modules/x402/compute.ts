/**
 * x402 `exact` on EVM, the pure rules (docs/x402.md): the terms a pack offers, reading a payment header, matching
 * it to an offer and checking its validity window. The clock is an input (unix seconds).
 */
import { Value } from "@sinclair/typebox/value";
import type { PaymentRequired, PaymentRequirements, SettleResponse } from "@x402/core/types";
import { decodePaymentSignatureHeader } from "@x402/core/http";
import { isAddress, isAddressEqual, maxUint256 } from "viem";
import { findToken, networkAllowedIn, type ChainRegistry, type NetworkConfig, type TokenConfig } from "../../lib/networks";
import type { Environment } from "../../lib/tenant";
import type { Eip3009Authorization } from "../../chains/x402-types";
import type { StoredPackPrice } from "../catalog/credit-packs/rows";
import { PaymentPayloadV1, PaymentPayloadV2 } from "./schemas";

/** How long an offer's authorization may be valid (`maxTimeoutSeconds`): the payer's client signs validBefore = now + this. */
export const MAX_TIMEOUT_SECONDS = 300;
/**
 * An authorization must stay valid this long past now to be taken: the transaction must land before validBefore,
 * or the token refuses it (the same margin as x402's reference facilitator).
 */
export const SETTLE_MARGIN_SECONDS = 6;
/**
 * How long a claim belongs to the request that made it (docs/x402.md#idempotency): by twice the chain job deadline,
 * that request's settle job has ended, so a retry or x402.reconcile may complete the claim without racing it.
 */
export const claimLeaseMs = (chainJobTimeoutMs: number) => 2 * chainJobTimeoutMs;
/** A payment header longer than this is refused unread (an EIP-3009 payload is well under 2 KB). */
const MAX_HEADER_LENGTH = 8192;

/** The error codes a refused payment names in PAYMENT-REQUIRED's `error` (x402 v2 specification, error codes). */
export type X402Reason =
  | "invalid_payload"
  | "invalid_x402_version"
  | "unsupported_scheme"
  | "invalid_network"
  | "invalid_payment_requirements"
  | "invalid_exact_evm_payload_recipient_mismatch"
  | "invalid_exact_evm_payload_authorization_value_mismatch"
  | "invalid_exact_evm_payload_authorization_valid_after"
  | "invalid_exact_evm_payload_authorization_valid_before"
  | "invalid_exact_evm_payload_signature"
  | "invalid_exact_evm_nonce_already_used"
  | "insufficient_funds"
  | "settlement_pending"
  | "unexpected_verify_error"
  | "invalid_transaction_state"
  | "unexpected_settle_error";

/** One price of the offered pack, ready to pay: its network and token, and the x402 requirement. */
export interface Offer {
  network: NetworkConfig;
  token: TokenConfig & { contract: string; eip712: { name: string; version: string } };
  requirement: PaymentRequirements;
}

export const caip2 = (network: NetworkConfig): `${string}:${string}` => `eip155:${network.chainId}`;

/**
 * The pack's prices that can be paid now: an EVM network this environment settles on, where the team has a
 * settlement wallet accepting the token (an empty token list accepts all), and an EIP-3009 token of it.
 */
export function offersOf(
  registry: ChainRegistry,
  environment: Environment,
  prices: readonly StoredPackPrice[],
  wallets: readonly { network: string; wallet: string; tokens: readonly string[] }[],
): Offer[] {
  const offers: Offer[] = [];
  for (const price of prices) {
    const network = registry.get(price.network);
    if (!network || network.family !== "evm" || network.chainId === null || !networkAllowedIn(network, environment)) continue;
    const token = findToken(network, price.token);
    const wallet = wallets.find((w) => w.network === network.id);
    if (!token?.contract || !token.eip712 || !wallet) continue;
    if (wallet.tokens.length > 0 && !wallet.tokens.some((s) => s.toLowerCase() === token.symbol.toLowerCase())) continue;
    offers.push({
      network,
      token: token as Offer["token"],
      requirement: {
        scheme: "exact",
        network: caip2(network),
        asset: token.contract,
        amount: price.amount,
        payTo: wallet.wallet,
        maxTimeoutSeconds: MAX_TIMEOUT_SECONDS,
        extra: { name: token.eip712.name, version: token.eip712.version },
      },
    });
  }
  return offers;
}

/** The PAYMENT-REQUIRED value: the offers for this resource, with the reason of a refusal when there was one. */
export const paymentRequired = (
  offers: readonly Offer[],
  resource: { url: string; description: string },
  error = "Insufficient credits",
): PaymentRequired => ({
  x402Version: 2,
  error,
  resource: { url: resource.url, description: resource.description, mimeType: "application/json" },
  accepts: offers.map((o) => o.requirement),
});

/** A payment as read from its header: what was signed, and (v2) which of our requirements the payer accepted. */
export interface ReadPayment {
  version: 1 | 2;
  scheme: string;
  network: string;
  accepted: PaymentRequirements | null;
  authorization: Eip3009Authorization;
  signature: string;
}

export type Read<T> = { ok: true; value: T } | { ok: false; reason: X402Reason };
export const refused = <T>(reason: X402Reason): Read<T> => ({ ok: false, reason });

/** The payload's integers are uint256 (78 digits can exceed it): one that is not is a malformed payload, not a chain error. */
const fitsUint256 = (amount: string, a: { value: string; validAfter: string; validBefore: string }) =>
  [amount, a.value, a.validAfter, a.validBefore].every((n) => BigInt(n) <= maxUint256);

/** Decodes a PAYMENT-SIGNATURE (v2) or X-PAYMENT (v1) header; anything not of the expected shape is invalid_payload. */
export function readPaymentHeader(header: string, version: 1 | 2): Read<ReadPayment> {
  if (header.length > MAX_HEADER_LENGTH) return refused("invalid_payload");
  let decoded: unknown;
  try {
    decoded = decodePaymentSignatureHeader(header.trim());
  } catch {
    return refused("invalid_payload");
  }
  const claimed = (decoded as { x402Version?: unknown } | null)?.x402Version;
  if (claimed !== version) return refused(typeof claimed === "number" ? "invalid_x402_version" : "invalid_payload");
  if (version === 2) {
    if (!Value.Check(PaymentPayloadV2, decoded) || !fitsUint256(decoded.accepted.amount, decoded.payload.authorization))
      return refused("invalid_payload");
    const { accepted, payload } = decoded;
    const requirement = { ...accepted, extra: accepted.extra ?? {} } as PaymentRequirements;
    return { ok: true, value: { version, scheme: accepted.scheme, network: accepted.network, accepted: requirement, ...payload } };
  }
  if (!Value.Check(PaymentPayloadV1, decoded) || !fitsUint256("0", decoded.payload.authorization)) return refused("invalid_payload");
  return { ok: true, value: { version, scheme: decoded.scheme, network: decoded.network, accepted: null, ...decoded.payload } };
}

/** Two addresses equal in any case; a string that is no address (a payload's `asset` is any string) equals nothing. */
export const sameAddress = (a: string, b: string) => isAddress(a, { strict: false }) && isAddress(b, { strict: false }) && isAddressEqual(a, b);

/**
 * The offer the payment pays, or why none: v2 names the requirement it accepted, which must be one we offer
 * (scheme, network, asset, payee and amount); v1 names only scheme and network (a registry id or CAIP-2), and pays
 * the first price on that network. Either way the signed authorization must pay that offer's payee exactly its
 * amount: `exact` moves the price, no more and no less.
 */
export function matchOffer(payment: ReadPayment, offers: readonly Offer[]): Read<Offer> {
  if (payment.scheme !== "exact") return refused("unsupported_scheme");
  const onNetwork = offers.filter((o) => o.requirement.network === payment.network || o.network.id === payment.network);
  if (onNetwork.length === 0) return refused("invalid_network");
  const a = payment.accepted;
  const offer = a ? onNetwork.find((o) => sameAddress(o.requirement.asset, a.asset)) : onNetwork[0];
  if (!offer) return refused("invalid_payment_requirements");
  const wanted = offer.requirement;
  if (a && !sameAddress(a.payTo, wanted.payTo)) return refused("invalid_exact_evm_payload_recipient_mismatch");
  if (a && a.amount !== wanted.amount) return refused("invalid_exact_evm_payload_authorization_value_mismatch");
  if (!sameAddress(payment.authorization.to, wanted.payTo)) return refused("invalid_exact_evm_payload_recipient_mismatch");
  if (BigInt(payment.authorization.value) !== BigInt(wanted.amount)) return refused("invalid_exact_evm_payload_authorization_value_mismatch");
  return { ok: true, value: offer };
}

/** validAfter <= now, and validBefore far enough ahead for the transaction to land (SETTLE_MARGIN_SECONDS). */
export function windowProblem(authorization: Eip3009Authorization, nowSeconds: number): X402Reason | null {
  if (BigInt(authorization.validAfter) > BigInt(nowSeconds)) return "invalid_exact_evm_payload_authorization_valid_after";
  if (BigInt(authorization.validBefore) < BigInt(nowSeconds + SETTLE_MARGIN_SECONDS)) return "invalid_exact_evm_payload_authorization_valid_before";
  return null;
}

/**
 * The PAYMENT-RESPONSE (v2) or X-PAYMENT-RESPONSE (v1) value of a settled payment: the network named as the payment
 * named it (v2: CAIP-2; v1 by its name, e.g. `base-sepolia`).
 */
export const settleResponse = (p: { txHash: string; network: NetworkConfig; payment: ReadPayment }): SettleResponse => ({
  success: true,
  transaction: p.txHash,
  network: p.payment.version === 1 ? (p.payment.network as SettleResponse["network"]) : caip2(p.network),
  payer: p.payment.authorization.from,
});
