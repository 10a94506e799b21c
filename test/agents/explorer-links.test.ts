/**
 * Transactions linked to the network's explorer from the chain registry (`explorerTxUrl`): a top-up dispatch's
 * `explorerUrl` and a reservation's `explorerUrls`, null without a hash or on a network without an explorer.
 */
import { describe, expect, test } from "bun:test";
import { BUILT_IN_NETWORKS, ChainRegistry, explorerTxUrl } from "../../src/lib/networks";
import { presentDispatch } from "../../src/modules/agents/present";
import type { DispatchRow } from "../../src/modules/agents/rows";
import { presentReservation } from "../../src/modules/escrow/present";
import type { EscrowReservationRow } from "../../src/modules/escrow/rows";

const HASH = `0x${"ab".repeat(32)}`;
const anvil = {
  id: "anvil",
  family: "evm",
  testnet: true,
  chainId: 31337,
  rpcUrl: "http://127.0.0.1:8545",
  confirmations: 1,
  tokens: [{ symbol: "USDC", decimals: 6, contract: `0x${"1".repeat(40)}` }],
};
const chains = ChainRegistry.fromFile([anvil]);
const at = new Date("2027-03-01T12:00:00.000Z");

describe("explorerTxUrl", () => {
  test("every built-in network names an https explorer with the hash in it", () => {
    for (const network of BUILT_IN_NETWORKS) expect(explorerTxUrl(network, HASH)).toStartWith("https://");
    expect(explorerTxUrl(chains.get("base-sepolia"), HASH)).toBe(`https://sepolia.basescan.org/tx/${HASH}`);
    expect(explorerTxUrl(chains.get("solana-devnet"), "5sig")).toBe("https://explorer.solana.com/tx/5sig?cluster=devnet");
  });

  test("null without a hash, without an explorer (a local chain) or for a network the registry lacks; the hash is encoded", () => {
    expect(explorerTxUrl(chains.get("base"), null)).toBeNull();
    expect(explorerTxUrl(chains.get("anvil"), HASH)).toBeNull();
    expect(explorerTxUrl(undefined, HASH)).toBeNull();
    expect(explorerTxUrl(chains.get("base"), "a/b?c")).toBe("https://basescan.org/tx/a%2Fb%3Fc");
  });

  test("a registry file may name one, https only and with {txHash}", () => {
    const named = ChainRegistry.fromFile([{ ...anvil, explorerTxUrl: "https://explorer.example/tx/{txHash}" }]);
    expect(explorerTxUrl(named.get("anvil"), HASH)).toBe(`https://explorer.example/tx/${HASH}`);
    expect(() => ChainRegistry.fromFile([{ ...anvil, explorerTxUrl: "javascript:alert({txHash})" }])).toThrow("Invalid chain registry file");
    expect(() => ChainRegistry.fromFile([{ ...anvil, explorerTxUrl: "https://explorer.example/tx/" }])).toThrow("Invalid chain registry file");
  });
});

describe("the API's views", () => {
  const dispatch = (network: string, txHash: string | null) =>
    presentDispatch(chains, {
      id: "atd_1",
      config_id: "atc_1",
      network,
      token_symbol: "USDC",
      target_wallet: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
      funding_wallet: null,
      amount: "5",
      balance_seen: "0",
      status: txHash ? "confirmed" : "failed",
      reason: txHash ? null : "mandate_missing",
      detail: null,
      tx_hash: txHash,
      created_at: at,
      updated_at: at,
    } as DispatchRow);

  test("a dispatch's explorerUrl", () => {
    expect(dispatch("base-sepolia", HASH).explorerUrl).toBe(`https://sepolia.basescan.org/tx/${HASH}`);
    expect(dispatch("base-sepolia", null).explorerUrl).toBeNull();
    expect(dispatch("anvil", HASH).explorerUrl).toBeNull();
  });

  test("a reservation's explorerUrls, one per transaction", () => {
    const row = {
      id: "esc_1",
      network: "base-sepolia",
      request_nonce: "n",
      status: "disputed",
      authorize_tx: HASH,
      capture_tx: null,
      dispute_tx: `0x${"cd".repeat(32)}`,
      refund_tx: null,
      window_ends_at: at,
      consent_deadline: at,
      created_at: at,
      updated_at: at,
    } as unknown as EscrowReservationRow;
    expect(presentReservation(chains, row).explorerUrls).toEqual({
      authorize: `https://sepolia.basescan.org/tx/${HASH}`,
      capture: null,
      dispute: `https://sepolia.basescan.org/tx/0x${"cd".repeat(32)}`,
      refund: null,
    });
    expect(presentReservation(chains, { ...row, network: "anvil" }).explorerUrls.authorize).toBeNull();
  });
});
