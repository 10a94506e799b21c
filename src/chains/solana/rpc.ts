/**
 * The two JSON-RPC reads a verification needs, behind a Connection whose every failure mode is bounded:
 * one fetch per call with a deadline, and no 429 retry loop (web3.js otherwise backs off up to five times,
 * which would hold a worker for seconds against an endpoint that is down). A slow or refusing endpoint
 * becomes `unavailable` promptly and the caller's retry policy decides what happens next.
 */
import { Connection, type VersionedTransactionResponse } from "@solana/web3.js";

export type Lookup = { kind: "found"; tx: VersionedTransactionResponse } | { kind: "not_final" } | { kind: "not_found" } | { kind: "unavailable" };

export interface SolanaRpc {
  lookup(rpcUrl: string, signature: string): Promise<Lookup>;
}

/** One Connection per endpoint URL, every request of it bounded by `timeoutMs` and never retried on 429. */
export function boundedConnections(timeoutMs: number): (rpcUrl: string) => Connection {
  // A Connection holds no socket until used, but building one per call would redo its setup; keep one per URL.
  const connections = new Map<string, Connection>();
  const boundedFetch = ((input: RequestInfo | URL, init?: RequestInit) =>
    fetch(input, { ...init, signal: AbortSignal.timeout(timeoutMs) })) as typeof fetch;

  return (rpcUrl) => {
    let connection = connections.get(rpcUrl);
    if (!connection) {
      connection = new Connection(rpcUrl, {
        commitment: "finalized",
        fetch: boundedFetch,
        disableRetryOnRateLimit: true,
        httpAgent: false, // our fetch is the standard one; web3.js's keep-alive agent is Node-only
      });
      connections.set(rpcUrl, connection);
    }
    return connection;
  };
}

export function createSolanaRpc(timeoutMs: number): SolanaRpc {
  const connectionFor = boundedConnections(timeoutMs);

  return {
    async lookup(rpcUrl, signature) {
      try {
        const connection = connectionFor(rpcUrl);
        const tx = await connection.getTransaction(signature, { commitment: "finalized", maxSupportedTransactionVersion: 0 });
        if (tx) return { kind: "found", tx };
        // Not served at `finalized`: either still settling or unknown. Only the status history can tell.
        const { value } = await connection.getSignatureStatuses([signature], { searchTransactionHistory: true });
        const status = value[0];
        if (!status) return { kind: "not_found" };
        // A status of `finalized` here means it finalized between the two calls: retrying will find it.
        return { kind: "not_final" };
      } catch {
        // Network error, timeout, HTTP error status, JSON-RPC error, or a response web3.js could not parse.
        return { kind: "unavailable" };
      }
    },
  };
}
