/** The messages between the pool (request side) and a chain worker. Both must survive structuredClone. */
import type { AutopayResult, ConsentCheck, LookupResult, OperationResult, SubscriptionAdapter, SubscriptionOperation } from "./subscription-types";
import type { ChainAdapter, ChainFamily, PaymentExpectation, PaymentVerdict } from "./types";
import type { X402Adapter, X402Check, X402Landing, X402Operation, X402Settlement } from "./x402-types";

export type JobRequest =
  | { id: number; kind: "verifyPayment"; expectation: PaymentExpectation }
  | { id: number; kind: "subscription"; family: ChainFamily; operation: SubscriptionOperation }
  | { id: number; kind: "x402"; operation: X402Operation };

/** A payment verdict, a subscription operation's result, or an x402 check or settlement. */
export type JobAnswer = PaymentVerdict | OperationResult | AutopayResult | LookupResult | ConsentCheck | X402Check | X402Settlement | X402Landing;

export interface JobResponse {
  id: number;
  verdict: JobAnswer;
}

/** Loaded on first use inside a worker, so a worker that only ever sees EVM jobs never loads the Solana SDK. */
export const ADAPTERS: Record<ChainFamily, () => Promise<ChainAdapter>> = {
  evm: async () => (await import("./evm")).evmAdapter,
  stellar: async () => (await import("./stellar")).stellarAdapter,
  solana: async () => (await import("./solana")).solanaAdapter,
};

/** The families' subscription adapters (src/chains/<family>/subscriptions.ts), loaded the same way. */
export const SUBSCRIPTION_ADAPTERS: Record<ChainFamily, () => Promise<SubscriptionAdapter>> = {
  evm: async () => (await import("./evm/subscriptions")).evmSubscriptions,
  stellar: async () => (await import("./stellar/subscriptions")).stellarSubscriptions,
  solana: async () => (await import("./solana/subscriptions")).solanaSubscriptions,
};

/** x402 `exact` payments: EVM only (EIP-3009), loaded the same way. */
export const X402_ADAPTER = async (): Promise<X402Adapter> => (await import("./evm/x402")).evmX402;
