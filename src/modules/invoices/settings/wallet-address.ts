/**
 * What a settlement wallet may be. Every invoice payment of its network arrives there, so a mistake in it
 * loses money for as long as it stands, and nobody notices until a customer's payment is not found. Beyond
 * being an address of the network's family (src/chains/addresses.ts, as a payment link's recipient):
 * - not an address nobody can spend from (the EVM zero address and 0x…dEaD, Solana's system program);
 * - on EVM, in its EIP-55 checksum form. An all-lowercase address is a valid address with no checksum, so a
 *   mistyped character goes through unnoticed. Payment links accept it, since integrations pass addresses
 *   from code; a settlement wallet is set by a person copying it from a wallet, which shows the checksummed
 *   form, and the refusal costs one paste.
 */
import { getAddress } from "viem";
import { isValidAddress, sameAddress } from "../../../chains/addresses";
import type { ChainFamily } from "../../../chains/types";

const UNSPENDABLE: Record<ChainFamily, readonly string[]> = {
  evm: ["0x0000000000000000000000000000000000000000", "0x000000000000000000000000000000000000dEaD"],
  solana: ["11111111111111111111111111111111"],
  stellar: [],
};

/** Why `wallet` cannot be a settlement wallet on a network of `family`, or null when it can. */
export function settlementWalletProblem(family: ChainFamily, wallet: string): string | null {
  if (!isValidAddress(family, wallet)) return `Not a valid ${family} address`;
  if (UNSPENDABLE[family].some((burn) => sameAddress(family, burn, wallet)))
    return "A burn address: nobody can spend what arrives there; expected the team's own wallet";
  if (family === "evm" && getAddress(wallet) !== wallet)
    return "Expected the address in its EIP-55 checksum form (mixed case, as wallets show it): without the checksum a typo goes unnoticed";
  return null;
}
