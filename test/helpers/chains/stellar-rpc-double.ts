/**
 * A local Soroban RPC double: a real HTTP JSON-RPC server (Bun.serve) over a small ledger with accounts,
 * Stellar Asset Contracts, balances and allowances. No Stellar node installs from npm, so this stands in for
 * stellar-rpc + stellar-core: it decodes every submitted envelope and checks the passphrase-bound signature of
 * the source account, the sequence number, time bounds, fee, the invoked contract, function and argument
 * types, the footprint and the authorization before applying anything (stellar-rpc-submit.ts).
 *
 * Faults for tests: `outage` (methods answer HTTP 503), `loseNextSendAnswer()` (the transaction lands, the
 * answer is a 503), `node.hold` (accepted transactions wait for `closeLedger()`).
 */
import { type Asset, Networks } from "@stellar/stellar-sdk";
import { methods, RpcError } from "./stellar-rpc-methods";
import { DoubleNode } from "./stellar-rpc-node";

export interface StellarRpcDouble {
  url: string;
  passphrase: string;
  node: DoubleNode;
  /** methods that answer HTTP 503 while listed */
  outage: Set<string>;
  /** the next sendTransaction is processed, but its answer is lost (HTTP 503) */
  loseNextSendAnswer(): void;
  /** how many requests of a JSON-RPC method reached the double */
  calls(method: string): number;
  createAccount(account: string, xlm?: bigint): void;
  /** registers the asset's SAC and returns its contract id */
  addToken(asset: Asset): string;
  /** sets a holder's balance (opening the trustline of a credit asset) */
  fund(asset: Asset, holder: string, amount: bigint): void;
  /** null: no trustline (credit asset) or no account (XLM) */
  balance(asset: Asset, holder: string): bigint | null;
  allowance(asset: Asset, from: string, spender: string): { amount: bigint; liveUntil: number } | null;
  /** closes `count` ledgers (transactions held by `node.hold` land in the first) */
  closeLedger(count?: number): void;
  stop(): void;
}

export interface DoubleOptions {
  passphrase?: string;
  firstLedger?: number;
}

export function startStellarRpcDouble(options: DoubleOptions = {}): StellarRpcDouble {
  const passphrase = options.passphrase ?? Networks.TESTNET;
  const node = new DoubleNode(passphrase, options.firstLedger ?? 1_000);
  const handlers = methods(node);
  const counts = new Map<string, number>();
  const outage = new Set<string>();
  let loseSend = false;

  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(request) {
      const body = (await request.json().catch(() => null)) as { id?: unknown; method?: string; params?: Record<string, unknown> } | null;
      const method = body?.method ?? "";
      counts.set(method, (counts.get(method) ?? 0) + 1);
      if (outage.has(method)) return new Response("upstream unavailable", { status: 503 });
      const handler = handlers[method];
      const id = body?.id ?? null;
      if (!handler) return Response.json({ jsonrpc: "2.0", id, error: { code: -32601, message: "method not found" } });
      try {
        const result = handler(body?.params ?? {});
        if (method === "sendTransaction" && loseSend) {
          loseSend = false;
          return new Response("gateway timeout", { status: 503 });
        }
        return Response.json({ jsonrpc: "2.0", id, result });
      } catch (error) {
        const code = error instanceof RpcError ? error.code : -32603;
        return Response.json({ jsonrpc: "2.0", id, error: { code, message: error instanceof Error ? error.message : "internal error" } });
      }
    },
  });

  const token = (asset: Asset) => node.ledger.tokens.get(asset.contractId(passphrase))!;
  return {
    url: `http://127.0.0.1:${server.port}`,
    passphrase,
    node,
    outage,
    loseNextSendAnswer: () => {
      loseSend = true;
    },
    calls: (method) => counts.get(method) ?? 0,
    createAccount: (account, xlm = 10_000_0000000n) => void node.ledger.accounts.set(account, { sequence: BigInt(node.latest) << 32n, xlm }),
    addToken: (asset) => node.ledger.addToken(asset),
    fund: (asset, holder, amount) => node.ledger.setBalance(token(asset), holder, amount),
    balance: (asset, holder) => node.ledger.balanceOf(token(asset), holder),
    allowance: (asset, from, spender) => {
      const stored = token(asset).allowances.get(`${from}>${spender}`);
      return stored ? { ...stored } : null;
    },
    closeLedger: (count) => node.closeLedger(count),
    stop: () => void server.stop(true),
  };
}
