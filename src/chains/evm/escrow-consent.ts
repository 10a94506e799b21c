/**
 * The EIP-712 typed data a payer signs to consent to one escrow reservation on our contract (contracts/Escrow.sol,
 * `Consent`): domain {name "Escrow", version "1", chainId, verifyingContract}. One definition, used by the service to
 * verify a consent before anything is written and by the chain code to send it to `reserve`. docs/escrow.md#the-payers-consent
 */
import { encodeAbiParameters, getAddress, keccak256, stringToBytes, zeroHash, type Hex } from "viem";

export const ESCROW_CONSENT_TYPES = {
  Consent: [
    { name: "payer", type: "address" },
    { name: "payee", type: "address" },
    { name: "token", type: "address" },
    { name: "amount", type: "uint256" },
    { name: "requestNonce", type: "string" },
    { name: "windowEnd", type: "uint64" },
    { name: "deadline", type: "uint64" },
    { name: "deliveryProvider", type: "bytes32" },
  ],
} as const;

/** One reservation's consent, as signed. Plain data: it crosses the worker boundary. */
export interface EscrowConsent {
  payer: string;
  payee: string;
  token: string;
  /** token units */
  amount: bigint;
  requestNonce: string;
  /** unix seconds: the challenge window ends */
  windowEnd: number;
  /** unix seconds: the last second the consent may be used */
  deadline: number;
  /** bytes32: keccak256 of the zkTLS provider whose proof may capture early; zero: none may (deliveryProviderHash) */
  deliveryProvider: string;
}

/** Where a consent is valid: the chain and the escrow contract. */
export interface EscrowDomain {
  chainId: number;
  contract: string;
}

/** The contract's key of a payee's request nonce: keccak256(abi.encode(payee, keccak256(nonce's UTF-8 bytes))). */
export const escrowKey = (payee: string, requestNonce: string): Hex =>
  keccak256(encodeAbiParameters([{ type: "address" }, { type: "bytes32" }], [getAddress(payee), keccak256(stringToBytes(requestNonce))]));

/** The consent's `deliveryProvider` for a Reclaim provider name: its keccak256, or zero when none (no early capture). */
export const deliveryProviderHash = (provider: string | null): Hex => (provider ? keccak256(stringToBytes(provider)) : zeroHash);

/** The contract's `Consent` struct, as viem encodes it for `reserve`. */
export const escrowConsentStruct = (c: EscrowConsent) => ({
  payer: getAddress(c.payer),
  payee: getAddress(c.payee),
  token: getAddress(c.token),
  amount: c.amount,
  requestNonce: c.requestNonce,
  windowEnd: BigInt(c.windowEnd),
  deadline: BigInt(c.deadline),
  deliveryProvider: c.deliveryProvider as Hex,
});

export const escrowConsentTypedData = (d: EscrowDomain, c: EscrowConsent) =>
  ({
    domain: { name: "Escrow", version: "1", chainId: d.chainId, verifyingContract: getAddress(d.contract) },
    types: ESCROW_CONSENT_TYPES,
    primaryType: "Consent",
    message: escrowConsentStruct(c),
  }) as const;
