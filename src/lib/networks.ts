/**
 * The chain registry: every network payments may settle on, with its family, chain id or name, endpoint,
 * finality rule and accepted tokens. The built-in list covers the main and test networks of the three
 * families with Circle's USDC; `CHAIN_REGISTRY_FILE` (a JSON array of networks, same shape) replaces
 * entries by id or adds new ones, e.g. a private RPC URL or a local anvil. docs/invoices.md#settlement-payment-links-and-checkout-sessions documents it.
 * Plain data and checks, no chain code: config.ts builds the registry at boot, before any chain or domain
 * exists, and the chain adapters read the networks it holds.
 */
import { Type as T, type Static } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { type Environment } from "./tenant";

export type ChainFamily = "evm" | "stellar" | "solana";

/** A token a network accepts. Exactly one of the family-specific locators is set. */
export interface TokenConfig {
  /** what integrators pass as `acceptedToken`, e.g. "USDC"; unique within a network */
  symbol: string;
  decimals: number;
  /** EVM: the ERC-20 contract address. Absent for the native coin. */
  contract?: string;
  /** Solana: the SPL mint address. Absent for native SOL. */
  mint?: string;
  /** Stellar: the credit asset. Absent for native XLM. */
  assetCode?: string;
  assetIssuer?: string;
  /** true for the network's own coin (ETH, SOL, XLM) */
  native?: boolean;
  /**
   * EVM: the token's EIP-712 domain name and version, for a token that takes EIP-3009 authorizations
   * (transferWithAuthorization): x402 payment terms name it so the payer signs under the token's own domain.
   */
  eip712?: { name: string; version: string };
}

export interface NetworkConfig {
  /** registry key, e.g. "base-sepolia", "stellar-testnet", "solana-devnet", "anvil" */
  id: string;
  family: ChainFamily;
  /** test networks settle only `_test_` (development) credentials; main networks only live ones */
  testnet: boolean;
  /** EVM chain id; null for Stellar and Solana */
  chainId: number | null;
  /** EVM and Solana JSON-RPC endpoint; Horizon base URL for Stellar */
  rpcUrl: string;
  /** Stellar network passphrase (the transaction hash commits to it) */
  networkPassphrase?: string;
  /**
   * EVM: blocks on top of the payment's block (inclusive of it) before it counts as final; 0 means use
   * the node's `finalized` block tag instead. Stellar closes ledgers final; Solana uses `finalized`
   * commitment. Both ignore this field.
   */
  confirmations: number;
  tokens: TokenConfig[];
  /** EVM: our subscription contract (contracts/Subscriptions.sol) on this network; subscriptions need it */
  subscriptionContract?: string;
  /** EVM: our escrow contract (contracts/Escrow.sol) on this network; escrow reservations need it (docs/escrow.md) */
  escrowContract?: string;
  /** Stellar: the Soroban RPC endpoint that token allowances (approve / transfer_from) are sent to */
  sorobanRpcUrl?: string;
  /** EVM: the Multicall3 contract batched balance reads go through; absent: MULTICALL3_ADDRESS, where it is deployed on nearly every chain */
  multicall3?: string;
  /** A block explorer's page of a transaction: an https URL with `{txHash}` where the hash goes; absent: no link */
  explorerTxUrl?: string;
}

/** Multicall3's address on nearly every EVM chain (the same deployer and nonce everywhere). */
export const MULTICALL3_ADDRESS = "0xcA11bde05977b3631167028862bE2a173976CA11";

const Token = T.Object({
  symbol: T.String({ minLength: 1, maxLength: 32 }),
  decimals: T.Integer({ minimum: 0, maximum: 36 }),
  contract: T.Optional(T.String({ pattern: "^0x[0-9a-fA-F]{40}$" })),
  mint: T.Optional(T.String({ minLength: 32, maxLength: 44 })),
  assetCode: T.Optional(T.String({ minLength: 1, maxLength: 12 })),
  assetIssuer: T.Optional(T.String({ minLength: 56, maxLength: 56 })),
  native: T.Optional(T.Boolean()),
  eip712: T.Optional(T.Object({ name: T.String({ minLength: 1, maxLength: 64 }), version: T.String({ minLength: 1, maxLength: 16 }) })),
});

const Network = T.Object({
  id: T.String({ pattern: "^[a-z0-9][a-z0-9-]{0,63}$" }),
  family: T.Union([T.Literal("evm"), T.Literal("stellar"), T.Literal("solana")]),
  testnet: T.Boolean(),
  chainId: T.Union([T.Integer({ minimum: 1 }), T.Null()]),
  rpcUrl: T.String({ pattern: "^https?://" }),
  networkPassphrase: T.Optional(T.String({ minLength: 1 })),
  confirmations: T.Integer({ minimum: 0, maximum: 10_000 }),
  tokens: T.Array(Token, { minItems: 1 }),
  subscriptionContract: T.Optional(T.String({ pattern: "^0x[0-9a-fA-F]{40}$" })),
  escrowContract: T.Optional(T.String({ pattern: "^0x[0-9a-fA-F]{40}$" })),
  sorobanRpcUrl: T.Optional(T.String({ pattern: "^https?://" })),
  multicall3: T.Optional(T.String({ pattern: "^0x[0-9a-fA-F]{40}$" })),
  explorerTxUrl: T.Optional(T.String({ pattern: "^https://[^\\s]*\\{txHash\\}", maxLength: 300 })),
});

export const RegistryFile = T.Array(Network);

const USDC = { symbol: "USDC", decimals: 6 } as const;
const STELLAR_USDC = { symbol: "USDC", decimals: 7, assetCode: "USDC" } as const; // Stellar amounts have 7 decimals
const PUBNET = "Public Global Stellar Network ; September 2015";
const TESTNET = "Test SDF Network ; September 2015";

export const BUILT_IN_NETWORKS: readonly NetworkConfig[] = [
  {
    id: "ethereum",
    family: "evm",
    testnet: false,
    chainId: 1,
    rpcUrl: "https://ethereum-rpc.publicnode.com",
    confirmations: 12,
    explorerTxUrl: "https://etherscan.io/tx/{txHash}",
    tokens: [
      { ...USDC, contract: "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48", eip712: { name: "USD Coin", version: "2" } },
      { symbol: "ETH", decimals: 18, native: true },
    ],
  },
  {
    id: "base",
    family: "evm",
    testnet: false,
    chainId: 8453,
    rpcUrl: "https://mainnet.base.org",
    confirmations: 10,
    explorerTxUrl: "https://basescan.org/tx/{txHash}",
    tokens: [
      { ...USDC, contract: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913", eip712: { name: "USD Coin", version: "2" } },
      { symbol: "ETH", decimals: 18, native: true },
    ],
  },
  {
    id: "sepolia",
    family: "evm",
    testnet: true,
    chainId: 11155111,
    rpcUrl: "https://ethereum-sepolia-rpc.publicnode.com",
    confirmations: 3,
    explorerTxUrl: "https://sepolia.etherscan.io/tx/{txHash}",
    tokens: [
      { ...USDC, contract: "0x1c7D4B196Cb0C7B01d743Fbc6116a902379C7238", eip712: { name: "USDC", version: "2" } },
      { symbol: "ETH", decimals: 18, native: true },
    ],
  },
  {
    id: "base-sepolia",
    family: "evm",
    testnet: true,
    chainId: 84532,
    rpcUrl: "https://sepolia.base.org",
    confirmations: 3,
    explorerTxUrl: "https://sepolia.basescan.org/tx/{txHash}",
    tokens: [
      { ...USDC, contract: "0x036CbD53842c5426634e7929541eC2318f3dCF7e", eip712: { name: "USDC", version: "2" } },
      { symbol: "ETH", decimals: 18, native: true },
    ],
  },
  {
    id: "stellar",
    family: "stellar",
    testnet: false,
    chainId: null,
    rpcUrl: "https://horizon.stellar.org",
    networkPassphrase: PUBNET,
    confirmations: 0,
    explorerTxUrl: "https://stellar.expert/explorer/public/tx/{txHash}",
    tokens: [
      { ...STELLAR_USDC, assetIssuer: "GA5ZSEJYB37JRC5AVCIA5MOP4RHTM335X2KGX3IHOJAPP5RE34K4KZVN" },
      { symbol: "XLM", decimals: 7, native: true },
    ],
  },
  {
    id: "stellar-testnet",
    family: "stellar",
    testnet: true,
    chainId: null,
    rpcUrl: "https://horizon-testnet.stellar.org",
    networkPassphrase: TESTNET,
    confirmations: 0,
    explorerTxUrl: "https://stellar.expert/explorer/testnet/tx/{txHash}",
    tokens: [
      { ...STELLAR_USDC, assetIssuer: "GBBD47IF6LWK7P7MDEVSCWR7DPUWV3NY3DTQEVFL4NAT4AQH3ZLLFLA5" },
      { symbol: "XLM", decimals: 7, native: true },
    ],
  },
  {
    id: "solana",
    family: "solana",
    testnet: false,
    chainId: null,
    rpcUrl: "https://api.mainnet-beta.solana.com",
    confirmations: 0,
    explorerTxUrl: "https://explorer.solana.com/tx/{txHash}",
    tokens: [
      { ...USDC, mint: "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v" },
      { symbol: "SOL", decimals: 9, native: true },
    ],
  },
  {
    id: "solana-devnet",
    family: "solana",
    testnet: true,
    chainId: null,
    rpcUrl: "https://api.devnet.solana.com",
    confirmations: 0,
    explorerTxUrl: "https://explorer.solana.com/tx/{txHash}?cluster=devnet",
    tokens: [
      { ...USDC, mint: "4zMMC9srt5Ri5X14GAgXhaHii3GnPAEERYPJgZJDncDU" },
      { symbol: "SOL", decimals: 9, native: true },
    ],
  },
];

/** Problems that TypeBox cannot express: each token names exactly the locator its family uses. */
function familyErrors(network: NetworkConfig): string[] {
  const errors: string[] = [];
  if (network.family === "evm" && network.chainId === null) errors.push(`${network.id}: an EVM network needs a chainId`);
  if (network.family !== "evm" && network.chainId !== null) errors.push(`${network.id}: only EVM networks have a chainId`);
  if (network.family === "stellar" && !network.networkPassphrase) errors.push(`${network.id}: a Stellar network needs its networkPassphrase`);
  if (network.subscriptionContract && network.family !== "evm") errors.push(`${network.id}: only EVM networks have a subscriptionContract`);
  if (network.escrowContract && network.family !== "evm") errors.push(`${network.id}: only EVM networks have an escrowContract`);
  if (network.sorobanRpcUrl && network.family !== "stellar") errors.push(`${network.id}: only Stellar networks have a sorobanRpcUrl`);
  const symbols = new Set<string>();
  for (const token of network.tokens) {
    if (symbols.has(token.symbol)) errors.push(`${network.id}: token ${token.symbol} is listed twice`);
    symbols.add(token.symbol);
    const locator = { evm: token.contract, solana: token.mint, stellar: token.assetCode && token.assetIssuer }[network.family];
    if (token.eip712 && (network.family !== "evm" || !token.contract))
      errors.push(`${network.id}: token ${token.symbol} has an eip712 domain, which only an EVM token contract has`);
    if (!token.native === !locator)
      errors.push(
        `${network.id}: token ${token.symbol} must be either native or name its ${network.family === "evm" ? "contract" : network.family === "solana" ? "mint" : "assetCode and assetIssuer"}`,
      );
  }
  return errors;
}

/**
 * Two registry entries for one chain (the same EVM chain id or Stellar passphrase under two ids) would let
 * one transaction pay once under each id, since payments are unique per (network id, hash).
 */
function duplicateChains(networks: readonly NetworkConfig[]): string[] {
  const seen = new Map<string, string>();
  const errors: string[] = [];
  for (const n of networks) {
    const key = n.chainId !== null ? `evm:${n.chainId}` : n.networkPassphrase ? `stellar:${n.networkPassphrase}` : `${n.family}:${n.rpcUrl}`;
    const first = seen.get(key);
    if (first) errors.push(`${n.id}: the same chain as ${first}; replace ${first} by using its id instead`);
    else seen.set(key, n.id);
  }
  return errors;
}

export class ChainRegistry {
  private readonly byId: ReadonlyMap<string, NetworkConfig>;

  constructor(networks: readonly NetworkConfig[]) {
    const errors = [...networks.flatMap(familyErrors), ...duplicateChains(networks)];
    if (errors.length) throw new Error(`Invalid chain registry:\n  ${errors.join("\n  ")}`);
    this.byId = new Map(networks.map((n) => [n.id, n]));
  }

  /** The built-in networks, with the entries of a registry file replacing or extending them by id. */
  static fromFile(contents: unknown, base: readonly NetworkConfig[] = BUILT_IN_NETWORKS): ChainRegistry {
    const problems = [...Value.Errors(RegistryFile, contents)].map((e) => `${e.path}: ${e.message}`);
    if (problems.length) throw new Error(`Invalid chain registry file:\n  ${problems.slice(0, 10).join("\n  ")}`);
    const merged = new Map(base.map((n) => [n.id, n]));
    for (const network of contents as Static<typeof RegistryFile>) merged.set(network.id, network as NetworkConfig);
    return new ChainRegistry([...merged.values()]);
  }

  get(id: string): NetworkConfig | undefined {
    return this.byId.get(id);
  }

  list(): NetworkConfig[] {
    return [...this.byId.values()];
  }
}

/** How a token is named on chain: contract (EVM), mint (Solana), CODE:ISSUER (Stellar); the symbol when native. */
export const tokenLocator = (token: TokenConfig): string =>
  token.contract ?? token.mint ?? (token.assetCode ? `${token.assetCode}:${token.assetIssuer}` : token.symbol);

/**
 * A token of the network by symbol or by its locator (what payment links return as `acceptedToken`,
 * so any value the API gives can be sent back). Symbols and EVM contracts match in any case.
 */
export function findToken(network: NetworkConfig, ref: string): TokenConfig | undefined {
  const wanted = ref.toLowerCase();
  return network.tokens.find((t) => t.symbol.toLowerCase() === wanted || t.contract?.toLowerCase() === wanted || tokenLocator(t) === ref);
}

/** Test credentials settle only on test networks and live ones only on main networks. */
export const networkAllowedIn = (network: NetworkConfig, environment: Environment): boolean => network.testnet === (environment === "development");

/**
 * A transaction's page on the network's block explorer (the registry's `explorerTxUrl`), or null when the
 * network is not in the registry or names no explorer.
 */
export function explorerTxUrl(network: NetworkConfig | undefined, txHash: string | null): string | null {
  if (!txHash || !network?.explorerTxUrl) return null;
  return network.explorerTxUrl.replace("{txHash}", encodeURIComponent(txHash));
}
