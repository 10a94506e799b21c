/**
 * The one catch-all of the EVM adapters' calls: the endpoint is checked to serve the configured chain, and anything
 * thrown past the adapter's own verdicts is the endpoint failing us (an outcome unknown: `rpc_unavailable`).
 */
import type { PublicClient } from "viem";
import type { NetworkConfig } from "../types";
import { clientFor, wrongChain } from "./client";

export interface RpcUnavailable {
  ok: false;
  reason: "rpc_unavailable";
  detail: string;
}

const unavailable = (detail: string): RpcUnavailable => ({ ok: false, reason: "rpc_unavailable", detail });

/** Runs `body` against the network's endpoint; `before`: what the caller should do before retrying (one clause). */
export async function guarded<T>(network: NetworkConfig, before: string, body: (client: PublicClient) => Promise<T>): Promise<T | RpcUnavailable> {
  try {
    const client = clientFor(network);
    const otherChain = await wrongChain(client, network);
    if (otherChain) return unavailable(otherChain);
    return await body(client);
  } catch (error) {
    const name = error instanceof Error ? error.name : "Error";
    return unavailable(`The network's RPC endpoint did not answer usably (${name}); ${before}`);
  }
}
