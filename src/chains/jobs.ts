/** The messages between the pool (request side) and a chain worker. Both must survive structuredClone. */
import type { AutopayResult, ConsentCheck, LookupResult, OperationResult, SubscriptionAdapter, SubscriptionOperation } from "./subscription-types";
import type { EscrowAdapter, EscrowConsentCheck, EscrowOperation, EscrowReadResult, EscrowResult } from "./escrow-types";
import type { BalancesResult, FundingResult, TopupAdapter, TopupLookup, TopupOperation, TopupSendResult, TopupSigned } from "./topup-types";
import type { ChainAdapter, ChainFamily, PaymentExpectation, PaymentVerdict } from "./types";
import type { X402Adapter, X402Check, X402Landing, X402Operation, X402Settlement } from "./x402-types";

export type JobRequest =
  | { id: number; kind: "verifyPayment"; expectation: PaymentExpectation }
  | { id: number; kind: "subscription"; family: ChainFamily; operation: SubscriptionOperation }
  | { id: number; kind: "escrow"; operation: EscrowOperation }
  | { id: number; kind: "topup"; family: ChainFamily; operation: TopupOperation }
  | { id: number; kind: "x402"; operation: X402Operation };

/** A payment verdict, or the result of a subscription, escrow, auto-topup or x402 operation. */
export type JobAnswer =
  | PaymentVerdict
  | OperationResult
  | AutopayResult
  | LookupResult
  | ConsentCheck
  | EscrowResult
  | EscrowReadResult
  | EscrowConsentCheck
  | BalancesResult
  | FundingResult
  | TopupSendResult
  | TopupLookup
  | TopupSigned
  | { ok: true }
  | X402Check
  | X402Settlement
  | X402Landing;

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

/** The escrow adapter: EVM only (contracts/Escrow.sol). */
export const ESCROW_ADAPTER = async (): Promise<EscrowAdapter> => (await import("./evm/escrow")).evmEscrow;

/** The families' auto-topup adapters (src/chains/<family>/topups.ts); Stellar has none (docs/agents.md#networks). */
export const TOPUP_ADAPTERS: Partial<Record<ChainFamily, () => Promise<TopupAdapter>>> = {
  evm: async () => (await import("./evm/topups")).evmTopups,
  solana: async () => (await import("./solana/topups")).solanaTopups,
};

/** x402 `exact` payments: EVM only (EIP-3009), loaded the same way. */
export const X402_ADAPTER = async (): Promise<X402Adapter> => (await import("./evm/x402")).evmX402;
