/**
 * Inside the Stellar subscription flows a refusal is thrown and caught once, at the adapter's edge, so each
 * step reads as the happy path. Anything else that escapes (the SDK throws on a refused connection, a
 * JSON-RPC error, an answer that does not decode) is the endpoint's fault: `rpc_unavailable`, whose
 * contract is "look the reference up before trying again".
 */
import { refuseOperation, type SubscriptionFailure, type SubscriptionRefusal } from "../subscription-types";

export class Refused extends Error {
  constructor(readonly refusal: SubscriptionRefusal) {
    super(refusal.detail);
  }
}

export function refuse(reason: SubscriptionFailure, detail: string): never {
  throw new Refused(refuseOperation(reason, detail));
}

/** Runs one operation and turns whatever it throws into a verdict; never throws. */
export async function settle<T>(work: () => Promise<T>): Promise<T | SubscriptionRefusal> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof Refused) return error.refusal;
    // Never the error text: it can carry the RPC URL, and the integrator sees `detail`.
    return refuseOperation("rpc_unavailable", "The Soroban RPC could not be reached or answered unexpectedly; look the reference up before retrying");
  }
}
