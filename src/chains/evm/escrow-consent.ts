/**
 * The EIP-712 typed data a payer signs to consent to one escrow reservation on our contract (contracts/Escrow.sol,
 * `Consent`): domain {name "Escrow", version "1", chainId, verifyingContract}. One definition, used by the service to
 * verify a consent before anything is written and by the chain code to send it to `reserve`. docs/escrow.md#the-payers-consent
 */
import { getAddress, keccak256, stringToBytes, type Hex } from "viem";

export const ESCROW_CONSENT_TYPES = {
  Consent: [
    { name: "payer", type: "address" },
    { name: "payee", type: "address" },
    { name: "token", type: "address" },
    { name: "amount", type: "uint256" },
    { name: "requestNonce", type: "string" },
    { name: "windowEnd", type: "uint64" },
    { name: "deadline", type: "uint64" },
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
}

/** Where a consent is valid: the chain and the escrow contract. */
export interface EscrowDomain {
  chainId: number;
  contract: string;
}

/** The contract's key of a request nonce's reservation: keccak256 of the nonce's UTF-8 bytes. */
export const escrowKey = (requestNonce: string): Hex => keccak256(stringToBytes(requestNonce));

/** The contract's `Consent` struct, as viem encodes it for `reserve`. */
export const escrowConsentStruct = (c: EscrowConsent) => ({
  payer: getAddress(c.payer),
  payee: getAddress(c.payee),
  token: getAddress(c.token),
  amount: c.amount,
  requestNonce: c.requestNonce,
  windowEnd: BigInt(c.windowEnd),
  deadline: BigInt(c.deadline),
});

export const escrowConsentTypedData = (d: EscrowDomain, c: EscrowConsent) =>
  ({
    domain: { name: "Escrow", version: "1", chainId: d.chainId, verifyingContract: getAddress(d.contract) },
    types: ESCROW_CONSENT_TYPES,
    primaryType: "Consent",
    message: escrowConsentStruct(c),
  }) as const;
