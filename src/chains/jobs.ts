/** The messages between the pool (request side) and a chain worker. Both must survive structuredClone. */
import type { ChainAdapter, ChainFamily, PaymentExpectation, PaymentVerdict } from "./types";

export interface JobRequest {
  id: number;
  kind: "verifyPayment";
  expectation: PaymentExpectation;
}

export interface JobResponse {
  id: number;
  verdict: PaymentVerdict;
}

/** Loaded on first use inside a worker, so a worker that only ever sees EVM jobs never loads the Solana SDK. */
export const ADAPTERS: Record<ChainFamily, () => Promise<ChainAdapter>> = {
  evm: async () => (await import("./evm")).evmAdapter,
  stellar: async () => (await import("./stellar")).stellarAdapter,
  solana: async () => (await import("./solana")).solanaAdapter,
};
