/**
 * Address checks per family, run on a payment link's recipient and a checkout session's customer
 * wallet: a typo in a recipient sends a customer's money somewhere nobody can recover it, and one in a
 * customer wallet refuses their real payment, so the checksum is verified, not only the shape. Also
 * the one place that says how each family spells a transaction hash.
 */
import { isAddress } from "viem";
import { StrKey } from "@stellar/stellar-sdk";
import { PublicKey } from "@solana/web3.js";
import type { ChainFamily } from "./types";
import { isSignature } from "./solana/base58";
import { isTxHash } from "./stellar/hash";
import { isEvmTxHash } from "./evm/hash";

export function isValidAddress(family: ChainFamily, address: string): boolean {
  switch (family) {
    case "evm":
      return isAddress(address, { strict: true }); // mixed case must carry a valid EIP-55 checksum
    case "stellar":
      return StrKey.isValidEd25519PublicKey(address);
    case "solana":
      try {
        return new PublicKey(address).toBase58() === address;
      } catch {
        return false;
      }
  }
}

// The adapters' own checks, so a hash the API accepts is never one the verifier refuses as malformed.
const IS_HASH: Record<ChainFamily, (hash: string) => boolean> = { evm: isEvmTxHash, stellar: isTxHash, solana: isSignature };

/** The canonical spelling of a transaction hash, so one transaction has one key; null if malformed. */
export function normalizeTxHash(family: ChainFamily, hash: string): string | null {
  if (!IS_HASH[family](hash)) return null;
  return family === "solana" ? hash : hash.toLowerCase(); // hex is case-insensitive, base58 is not
}

export const HASH_FORMAT: Record<ChainFamily, string> = {
  evm: "0x followed by 64 hex digits",
  stellar: "64 hex digits",
  solana: "a base58 transaction signature",
};

/**
 * One spelling per account, to compare or index addresses by: EVM hex in any case is one address (lower-cased
 * here); base58 and StrKey are exact. Migration 00018's settlement_wallets.wallet_key is the same rule in SQL.
 */
export const addressKey = (family: ChainFamily, address: string): string => (family === "evm" ? address.toLowerCase() : address);

/** Whether two valid addresses of a family name the same account. */
export const sameAddress = (family: ChainFamily, a: string, b: string): boolean => addressKey(family, a) === addressKey(family, b);

/**
 * For checks made before the network is known (a request's fields, before the record naming its network is
 * read): the problem with a hash or address that no family of the configured `networks` accepts, or null.
 */
export function hashOfNoFamily(networks: readonly { family: ChainFamily }[], hash: string): string | null {
  const families = [...new Set(networks.map((n) => n.family))];
  return families.some((f) => normalizeTxHash(f, hash) !== null)
    ? null
    : `Expected a transaction hash: ${families.map((f) => HASH_FORMAT[f]).join(", or ")}`;
}

export function addressOfNoFamily(networks: readonly { family: ChainFamily }[], address: string): string | null {
  const families = [...new Set(networks.map((n) => n.family))];
  return families.some((f) => isValidAddress(f, address)) ? null : `Not a valid ${families.join(", ")} address`;
}
