/** The chain registry's rules and the per-family address and hash checks (pure, no network). */
import { describe, expect, test } from "bun:test";
import { BUILT_IN_NETWORKS, ChainRegistry, findToken, networkAllowedIn, tokenLocator } from "../../src/lib/networks";
import { isValidAddress, normalizeTxHash } from "../../src/chains/addresses";

const anvil = {
  id: "anvil",
  family: "evm",
  testnet: true,
  chainId: 31337,
  rpcUrl: "http://127.0.0.1:8545",
  confirmations: 2,
  tokens: [{ symbol: "USDC", decimals: 6, contract: `0x${"1".repeat(40)}` }],
};

describe("ChainRegistry", () => {
  test("a registry file adds networks and replaces built-ins by id", () => {
    const registry = ChainRegistry.fromFile([anvil, { ...BUILT_IN_NETWORKS.find((n) => n.id === "base")!, rpcUrl: "https://rpc.example/base" }]);
    expect(registry.get("anvil")?.chainId).toBe(31337);
    expect(registry.get("base")?.rpcUrl).toBe("https://rpc.example/base");
    expect(registry.list().length).toBe(BUILT_IN_NETWORKS.length + 1);
  });

  test("two entries for one chain are refused: one transaction could pay once under each", () => {
    expect(() => ChainRegistry.fromFile([{ ...anvil, id: "base-copy", chainId: 8453, testnet: false }])).toThrow("base-copy: the same chain as base");
  });

  test("a token must name the locator of its family, and a file must have the registry's shape", () => {
    expect(() => ChainRegistry.fromFile([{ ...anvil, tokens: [{ symbol: "USDC", decimals: 6 }] }])).toThrow(
      "anvil: token USDC must be either native or name its contract",
    );
    expect(() =>
      ChainRegistry.fromFile([{ ...anvil, family: "solana", chainId: null, tokens: [{ symbol: "USDC", decimals: 6, mint: "x".repeat(32) }] }]),
    ).not.toThrow();
    expect(() => ChainRegistry.fromFile([{ id: "Bad Id" }])).toThrow("Invalid chain registry file");
  });

  test("tokens are found by symbol (any case) or by address; test keys only on test networks", () => {
    const base = BUILT_IN_NETWORKS.find((n) => n.id === "base")!;
    expect(findToken(base, "usdc")?.contract).toBe("0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913");
    expect(findToken(base, "0x833589fcd6edb6e08f4c7c32d4f71b54bda02913")?.symbol).toBe("USDC");
    expect(findToken(base, "DAI")).toBeUndefined();
    // Whatever a payment link returns as acceptedToken names the same token when sent back: every family.
    for (const network of BUILT_IN_NETWORKS) for (const token of network.tokens) expect(findToken(network, tokenLocator(token))).toBe(token);
    expect(networkAllowedIn(base, "production")).toBe(true);
    expect(networkAllowedIn(base, "development")).toBe(false);
  });
});

describe("addresses and hashes", () => {
  test("recipients are checked per family, EIP-55 checksum included", () => {
    expect(isValidAddress("evm", "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913")).toBe(true);
    expect(isValidAddress("evm", "0x833589FCD6eDb6E08f4c7C32D4f71b54bdA02913")).toBe(false);
    expect(isValidAddress("stellar", "GA5ZSEJYB37JRC5AVCIA5MOP4RHTM335X2KGX3IHOJAPP5RE34K4KZVN")).toBe(true);
    expect(isValidAddress("stellar", "GA5ZSEJYB37JRC5AVCIA5MOP4RHTM335X2KGX3IHOJAPP5RE34K4KZVM")).toBe(false);
    expect(isValidAddress("solana", "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v")).toBe(true);
    expect(isValidAddress("solana", "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt10")).toBe(false); // 0 is not base58
    expect(isValidAddress("solana", "EPjFWdd5AufqSSqeM2qN1xzybapC8G4")).toBe(false); // too short for 32 bytes
  });

  test("one spelling per transaction: hex lowercased, base58 kept, and a truncated signature refused", () => {
    expect(normalizeTxHash("evm", `0x${"AB".repeat(32)}`)).toBe(`0x${"ab".repeat(32)}`);
    expect(normalizeTxHash("stellar", "CD".repeat(32))).toBe("cd".repeat(32));
    const signature = "5VERv8NMvzbJMEkV8xnrLkEaWRtSz9CosKDYjCJjBRnbJLgp8uirBgmQpjKhoR4tjF3ZpRzrFmBV6UjKdiSZkQUW";
    expect(normalizeTxHash("solana", signature)).toBe(signature);
    expect(normalizeTxHash("solana", signature.slice(0, 70))).toBeNull();
    expect(normalizeTxHash("evm", "0x1234")).toBeNull();
  });
});
