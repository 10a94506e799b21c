/**
 * The EIP-712 typed data a payer signs to consent to one subscription on our contract (contracts/Subscriptions.sol,
 * `Consent`): domain {name "Subscriptions", version "1", chainId, verifyingContract}. One definition, used by the
 * service to verify a consent before anything is written and by the adapter to send it to `subscribe`.
 */
import { getAddress, type Hex } from "viem";
import type { EvmConsent } from "../subscription-types";

export const CONSENT_TYPES = {
  Consent: [
    { name: "payer", type: "address" },
    { name: "payee", type: "address" },
    { name: "token", type: "address" },
    { name: "periodAllowance", type: "uint256" },
    { name: "periodSeconds", type: "uint64" },
    { name: "cap", type: "uint256" },
    { name: "end", type: "uint64" },
    { name: "company", type: "string" },
    { name: "salt", type: "bytes32" },
  ],
} as const;

export interface ConsentParties {
  chainId: number;
  contract: string;
  payer: string;
  payee: string;
  token: string;
}

/** The contract's `Consent` struct, as viem encodes it for `subscribe`. */
export const consentStruct = (p: ConsentParties, c: EvmConsent) => ({
  payer: getAddress(p.payer),
  payee: getAddress(p.payee),
  token: getAddress(p.token),
  periodAllowance: c.periodAllowance,
  periodSeconds: BigInt(c.periodSeconds),
  cap: c.cap,
  end: BigInt(c.end),
  company: c.company,
  salt: c.salt as Hex,
});

export const consentTypedData = (p: ConsentParties, c: EvmConsent) =>
  ({
    domain: { name: "Subscriptions", version: "1", chainId: p.chainId, verifyingContract: getAddress(p.contract) },
    types: CONSENT_TYPES,
    primaryType: "Consent",
    message: consentStruct(p, c),
  }) as const;
