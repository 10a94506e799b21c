/**
 * A stand-in Solana JSON-RPC node on a real HTTP port, answering `getTransaction` and
 * `getSignatureStatuses` with the envelopes and result shapes a node returns. What it knows is what the
 * test `put`s: transaction results produced by litesvm, each at a commitment level.
 */
import type { RpcTransaction } from "./solana-ledger";

export type Commitment = "processed" | "confirmed" | "finalized";
export const RANK: Record<Commitment, number> = { processed: 0, confirmed: 1, finalized: 2 };

/** How the node misbehaves, if at all. */
export type Fault = "none" | "jsonrpc-error" | "http-500" | "http-429";

export interface JsonRpcRequest {
  jsonrpc: "2.0";
  id: string | number;
  method: string;
  params?: unknown[];
}

export class FakeSolanaRpc {
  readonly calls: string[] = [];
  fault: Fault = "none";
  protected readonly known = new Map<string, { result: RpcTransaction; commitment: Commitment }>();
  private readonly server = Bun.serve({ port: 0, fetch: (request) => this.handle(request) });

  get url(): string {
    return `http://127.0.0.1:${this.server.port}`;
  }

  /** Serves `result` when asked for `signature` (normally its own; a test may lie). */
  put(signature: string, result: RpcTransaction, commitment: Commitment = "finalized"): void {
    this.known.set(signature, { result, commitment });
  }

  stop(): void {
    this.server.stop(true);
  }

  protected async handle(request: Request): Promise<Response> {
    const body = (await request.json()) as JsonRpcRequest | JsonRpcRequest[];
    const requests = Array.isArray(body) ? body : [body];
    this.calls.push(...requests.map((r) => r.method));
    if (this.fault === "http-500") return new Response("Internal Server Error", { status: 500 });
    if (this.fault === "http-429") return new Response("Too Many Requests", { status: 429 });
    const answers = requests.map((r) => this.answer(r));
    return Response.json(Array.isArray(body) ? answers : answers[0]);
  }

  protected answer({ id, method, params = [] }: JsonRpcRequest): unknown {
    const error = (code: number, message: string) => ({ jsonrpc: "2.0", id, error: { code, message } });
    if (this.fault === "jsonrpc-error") return error(-32603, "Internal error");
    const slot = 345_700_000;
    switch (method) {
      case "getTransaction": {
        const [signature, config = {}] = params as [string, { commitment?: Commitment; maxSupportedTransactionVersion?: number }];
        const entry = this.known.get(signature);
        // A node reports a transaction only once it has reached the commitment asked for.
        if (!entry || RANK[entry.commitment] < RANK[config.commitment ?? "finalized"]) return { jsonrpc: "2.0", id, result: null };
        if (entry.result.version !== "legacy" && config.maxSupportedTransactionVersion === undefined) {
          return error(
            -32015,
            'Transaction version (0) is not supported by the requesting client. Please try the request again with the following configuration parameter: "maxSupportedTransactionVersion": 0',
          );
        }
        return { jsonrpc: "2.0", id, result: entry.result };
      }
      case "getSignatureStatuses": {
        const [signatures] = params as [string[]];
        const value = signatures.map((signature) => {
          const entry = this.known.get(signature);
          if (!entry) return null;
          const finalized = entry.commitment === "finalized";
          return {
            slot: entry.result.slot,
            confirmations: finalized ? null : 7,
            err: entry.result.meta.err,
            status: entry.result.meta.status,
            confirmationStatus: entry.commitment,
          };
        });
        return { jsonrpc: "2.0", id, result: { context: { apiVersion: "2.2.7", slot }, value } };
      }
      default:
        return error(-32601, "Method not found");
    }
  }
}
