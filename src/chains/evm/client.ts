/**
 * One viem public client per RPC endpoint for the life of a worker (viem keeps its HTTP keep-alive and id
 * counter), shared by payment verification and subscriptions, and the check that an endpoint serves the chain
 * the registry names.
 */
import { createPublicClient, http, type PublicClient } from "viem";
import type { NetworkConfig } from "../types";

const RPC_TIMEOUT_MS = 10_000;

const clients = new Map<string, PublicClient>();

export function clientFor(network: NetworkConfig): PublicClient {
  let client = clients.get(network.rpcUrl);
  if (!client) {
    // retryCount 0: the pool's job deadline and the service's own retries decide about retrying, not viem.
    // No polling interval: nothing here watches blocks; receipt waits poll on their own schedule (receipt.ts).
    client = createPublicClient({ transport: http(network.rpcUrl, { timeout: RPC_TIMEOUT_MS, retryCount: 0 }) });
    clients.set(network.rpcUrl, client);
  }
  return client;
}

// Endpoints whose chain id was checked against the registry (once per worker and URL).
const verifiedChains = new Set<string>();

/**
 * A misconfigured URL (a testnet node under a main network's id) must never prove a live payment or move money:
 * a sentence saying so, or null when the endpoint serves the configured chain.
 */
export async function wrongChain(client: PublicClient, network: NetworkConfig): Promise<string | null> {
  const key = `${network.rpcUrl}|${network.chainId}`;
  if (verifiedChains.has(key)) return null;
  const served = await client.getChainId();
  if (served !== network.chainId) return `The endpoint of ${network.id} serves chain ${served}, not ${network.chainId}`;
  verifiedChains.add(key);
  return null;
}
