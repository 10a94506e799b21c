/**
 * The one interface every chain family implements. Adapters return a verdict value and never throw for
 * a verdict: a payment that does not prove what was asked is `{ok: false, reason}`, and so is an RPC
 * endpoint that is down. Everything here crosses the worker boundary, so it must survive
 * structuredClone: plain objects, strings, numbers, bigints; no class instances, no functions.
 */

export type { ChainFamily, NetworkConfig, TokenConfig } from "../lib/networks";
import type { NetworkConfig, TokenConfig } from "../lib/networks";

/** What a submitted transaction must prove. Amounts are integer smallest units. */
export interface PaymentExpectation {
  network: NetworkConfig;
  token: TokenConfig;
  txHash: string;
  /** EVM address / Solana owner address / Stellar account (G...) that must receive the funds */
  recipient: string;
  /** the transfer must be at least this much (EVM native transfers: exactly this much) */
  amount: bigint;
  /** Stellar only: the text memo the payment must carry, when set */
  memo?: string;
}

/** One qualifying transfer inside a verified transaction. */
export interface VerifiedTransfer {
  /** EVM: the log index; Stellar: the operation index; Solana: the recipient token account's index */
  transferIndex: number;
  amount: bigint;
  /** sender, best known: EVM `from`, Stellar op source or tx source, Solana the signer whose own balance of the token fell by the amount (else the fee payer) */
  payer: string;
  /**
   * Whether `payer`'s own balance paid for this transfer. Always true on EVM (a `Transfer` log's `from` is the
   * account debited; a native transfer's sender pays its value) and Stellar (an operation's source pays it).
   * On Solana only when a signer's own balance of the token fell by at least the amount: a transfer a signer
   * made as an SPL delegate of someone else's account, or one its own balance got back within the transaction,
   * names the fee payer with false. What a payment needs is who authorized it (the payer is always a signer);
   * what a refund needs is whose money left (src/modules/invoices/refunds/refund.ts accepts only true).
   */
  payerDebited: boolean;
}

export interface PaymentProof {
  ok: true;
  /** every transfer in the transaction that satisfies the expectation, in transaction order */
  transfers: VerifiedTransfer[];
  /** EVM block number, Stellar ledger sequence, Solana slot */
  blockNumber: bigint;
  /** EVM block hash; null where the family has no reorgs to guard against */
  blockHash: string | null;
}

/**
 * Why a transaction does not prove the payment. `retryable` reasons may change with time (not final yet,
 * not found yet, endpoint down); the others never will for this transaction.
 */
export type RefusalReason =
  | "not_found" // retryable: unknown to the node (yet), or dropped by a reorg
  | "not_final" // retryable: included but not enough confirmations / commitment
  | "rpc_unavailable" // retryable: the endpoint is down or answered garbage
  | "timeout" // retryable: the job ran past its deadline
  | "worker_crashed" // retryable: the worker died during the job
  | "failed" // the transaction reverted / failed on chain
  | "wrong_token" // no transfer of the accepted token (e.g. another contract emitting the same event)
  | "wrong_recipient" // the token moved, but not to the expected recipient
  | "amount_too_low" // the right token to the right recipient, but less than asked
  | "memo_mismatch" // Stellar: memo missing or different
  | "invalid_transaction" // malformed hash, hash does not match the envelope, unsupported shape
  | "wrong_payer"; // settlement only: proven, but not paid from the session's customerWallet

export const RETRYABLE_REASONS: ReadonlySet<RefusalReason> = new Set(["not_found", "not_final", "rpc_unavailable", "timeout", "worker_crashed"]);

export interface PaymentRefusal {
  ok: false;
  reason: RefusalReason;
  /** one human sentence, safe to show an integrator (no secrets, no RPC URLs with keys) */
  detail: string;
}

export type PaymentVerdict = PaymentProof | PaymentRefusal;

export interface ChainAdapter {
  verifyPayment(expectation: PaymentExpectation): Promise<PaymentVerdict>;
}

export const refuse = (reason: RefusalReason, detail: string): PaymentRefusal => ({ ok: false, reason, detail });
