/**
 * The chain side every Solana operator operation starts from (subscriptions.ts, topups.ts): the operator key read
 * from the worker's environment, one bounded Connection per endpoint, and rent-exemption amounts cached per
 * endpoint and account size.
 */
import { refuseOperation, type SubscriptionRefusal } from "../subscription-types";
import { loadOperator } from "./operator";
import type { SolanaChain } from "./pull";
import { boundedConnections } from "./rpc";
import type { Timing } from "./send";

export function solanaChains(timing: Timing, key: () => string | undefined): (rpcUrl: string) => Promise<SolanaChain | SubscriptionRefusal> {
  const connectionFor = boundedConnections(timing.requestMs);
  const rents = new Map<string, Promise<number>>();
  return async (rpcUrl) => {
    const operator = await loadOperator(key());
    if (!operator) return refuseOperation("not_configured", "Operations on this network need the service's Solana operator key, which is not set.");
    const connection = connectionFor(rpcUrl);
    const rent = (space: number) => {
      const cacheKey = `${rpcUrl} ${space}`;
      let lamports = rents.get(cacheKey);
      if (!lamports) {
        lamports = connection.getMinimumBalanceForRentExemption(space);
        rents.set(cacheKey, lamports);
        lamports.catch(() => rents.delete(cacheKey));
      }
      return lamports;
    };
    return { connection, operator, timing, rent };
  };
}
