/**
 * How a wallet of each family signs a text message, and the check of such a signature. On Solana and Stellar
 * the address is the key: a Solana address is the base58 of an ed25519 public key, a Stellar G... address its
 * StrKey spelling. What is signed differs:
 *  - Solana: the message's UTF-8 bytes as they are (what wallets' `signMessage` signs);
 *  - Stellar: SEP-53, the SHA-256 of "Stellar Signed Message:\n" followed by the message's UTF-8 bytes, so a
 *    signed message can never be a transaction's signature payload.
 * Checked with WebCrypto's Ed25519 (no key is ever imported for signing). EVM wallets sign with secp256k1 under
 * EIP-191 (`personal_sign`): checked by recovering the signer (externally owned accounts).
 */
import { StrKey } from "@stellar/stellar-sdk";
import { verifyMessage, type Hex } from "viem";
import { decodeBase58 } from "./solana/base58";

type Bytes = Uint8Array<ArrayBuffer>;

export interface MessageSigning {
  /** the convention's name, for error messages and documentation */
  convention: string;
  /** the ed25519 public key an address spells, or null when it spells none */
  publicKey(address: string): Bytes | null;
  /** the bytes the wallet signs for `message` */
  signedBytes(message: string): Promise<Bytes>;
}

/** SEP-53's prefix (stellar-protocol ecosystem/sep-0053.md, "Prefix and Encodings"). */
export const SEP53_PREFIX = "Stellar Signed Message:\n";

const utf8 = (text: string) => new TextEncoder().encode(text);

export const SOLANA_MESSAGE_SIGNING: MessageSigning = {
  convention: "Solana signMessage (ed25519 over the message's UTF-8 bytes)",
  publicKey: (address) => {
    const key = decodeBase58(address);
    return key?.length === 32 ? Uint8Array.from(key) : null;
  },
  signedBytes: async (message) => utf8(message),
};

export const STELLAR_MESSAGE_SIGNING: MessageSigning = {
  convention: "SEP-53 (ed25519 over SHA-256 of 'Stellar Signed Message:\\n' and the message)",
  publicKey: (address) => (StrKey.isValidEd25519PublicKey(address) ? Uint8Array.from(StrKey.decodeEd25519PublicKey(address)) : null),
  // Prefix and message concatenated as text encode to the prefix's bytes followed by the message's.
  signedBytes: async (message) => new Uint8Array(await crypto.subtle.digest("SHA-256", utf8(SEP53_PREFIX + message))),
};

/** Whether `signature` (64 bytes) is `address`'s signature of `message` under the convention `signing`. */
export async function verifySignedMessage(signing: MessageSigning, address: string, message: string, signature: Bytes): Promise<boolean> {
  const key = signing.publicKey(address);
  if (!key || signature.length !== 64) return false;
  try {
    const verifier = await crypto.subtle.importKey("raw", key, { name: "Ed25519" }, false, ["verify"]);
    return await crypto.subtle.verify("Ed25519", verifier, signature, await signing.signedBytes(message));
  } catch {
    // A 32-byte string that is not a point on the curve: no signature can be its.
    return false;
  }
}

/** Whether `signature` (0x + 65 bytes) is the EIP-191 `personal_sign` signature of `message` by the account `address`. */
export async function verifyEvmSignedMessage(address: string, message: string, signature: string): Promise<boolean> {
  if (!/^0x[0-9a-fA-F]{130}$/.test(signature) || !/^0x[0-9a-fA-F]{40}$/.test(address)) return false;
  try {
    return await verifyMessage({ address: address as Hex, message, signature: signature as Hex });
  } catch {
    return false;
  }
}
