/**
 * What a configuration or a funding mandate names on chain, checked before anything is written: the network (by
 * EIP-155 chain id or registry id, settling this environment, of a family auto-topup runs on), its token (an
 * ERC-20 or SPL token: the funding wallet's approval is what a top-up draws on, and a native coin has none), and
 * wallets in their canonical spelling. Each problem is one entry of the 400's details.
 */
import { getAddress } from "viem";
import { isValidAddress } from "../../chains/addresses";
import { findToken, networkAllowedIn, type ChainRegistry, type NetworkConfig, type TokenConfig } from "../../lib/networks";
import type { Tenant } from "../../lib/tenant";

/** The families auto-topup runs on (docs/agents.md#networks: Stellar is refused). */
export const TOPUP_FAMILIES = ["evm", "solana"] as const;
/** An SPL amount is a u64. */
export const MAX_SOLANA_AMOUNT = 2n ** 64n - 1n;

type Details = Record<string, string>;

const listed = (chains: ChainRegistry, tenant: Tenant) =>
  chains
    .list()
    .filter((n) => networkAllowedIn(n, tenant.environment) && (TOPUP_FAMILIES as readonly string[]).includes(n.family))
    .map((n) => (n.chainId === null ? n.id : `${n.id} (chainId ${n.chainId})`))
    .join(", ");

/** The network a request names by `chainId` and/or `network`; null with `details` filled when it names none usable. */
export function topupNetwork(
  chains: ChainRegistry,
  tenant: Tenant,
  named: { chainId?: number; network?: string; field: string },
  details: Details,
): NetworkConfig | null {
  const byChain = named.chainId === undefined ? undefined : chains.list().find((n) => n.family === "evm" && n.chainId === named.chainId);
  const byId = named.network === undefined ? undefined : chains.get(named.network);
  const options = `one of: ${listed(chains, tenant)}`;
  if (named.chainId !== undefined && !byChain)
    details["body.chainId"] = `No EVM network of the chain registry has chain id ${named.chainId}; ${options}`;
  if (named.network !== undefined && !byId) details[named.field] = `Unknown network; ${options}`;
  if (named.chainId === undefined && named.network === undefined)
    details["body.chainId"] = "Name the network: chainId (EVM) or network (a chain registry id; Solana targets are named this way)";
  if (byChain && byId && byChain.id !== byId.id) details["body.network"] = `chainId ${named.chainId} is ${byChain.id}, not ${byId.id}`;
  const network = byId ?? byChain;
  if (!network || details["body.network"] || details["body.chainId"] || details[named.field]) return null;
  const field = byId ? named.field : "body.chainId";
  if (!(TOPUP_FAMILIES as readonly string[]).includes(network.family)) {
    details[field] = `Auto-topup runs on EVM and Solana networks, not on ${network.family} ones (docs/agents.md); ${options}`;
    return null;
  }
  if (!networkAllowedIn(network, tenant.environment)) {
    details[field] =
      `${tenant.environment === "development" ? "Development credentials use test networks" : "Production credentials use main networks"}; ${options}`;
    return null;
  }
  return network;
}

/** The token named (default: the network's first non-native token); null with `details` filled. */
export function topupToken(network: NetworkConfig, ref: string | undefined, details: Details): TokenConfig | null {
  const token = ref === undefined ? network.tokens.find((t) => !t.native) : findToken(network, ref);
  const tokens = network.tokens.filter((t) => !t.native).map((t) => t.symbol);
  if (!token || token.native) {
    details["body.token"] = `Top-ups move a token the funding wallet approved, not the native coin; one of: ${tokens.join(", ") || "none"}`;
    return null;
  }
  return token;
}

/** The wallet in its canonical spelling (EVM: EIP-55 checksum), or null with `details[field]` filled. */
export function canonicalWallet(network: NetworkConfig, wallet: string, field: string, details: Details): string | null {
  if (!isValidAddress(network.family, wallet)) {
    details[field] =
      `Not a valid ${network.family === "evm" ? "EVM address (0x and 40 hex digits; mixed case must be a valid EIP-55 checksum)" : "Solana address (base58)"}`;
    return null;
  }
  return network.family === "evm" ? getAddress(wallet) : wallet;
}

/** Solana amounts are u64: one above that could never move. */
export function checkAmountRange(network: NetworkConfig, amounts: Record<string, string>, details: Details): void {
  if (network.family !== "solana") return;
  for (const [field, text] of Object.entries(amounts))
    if (BigInt(text) > MAX_SOLANA_AMOUNT) details[field] = `SPL token amounts are at most ${MAX_SOLANA_AMOUNT} (a u64)`;
}
