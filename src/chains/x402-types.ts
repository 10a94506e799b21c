/**
 * x402 `exact` payments on EVM: the payer's EIP-3009 authorization (transferWithAuthorization) that the service
 * checks against the chain and then sends as its operator (docs/x402.md#verification-and-settlement). Like
 * types.ts, all of it crosses the worker boundary: plain data only.
 */
import type { NetworkConfig, TokenConfig } from "./types";

/** The signed EIP-3009 message, as the payment payload carries it (integers as decimal strings). */
export interface Eip3009Authorization {
  from: string;
  to: string;
  value: string;
  validAfter: string;
  validBefore: string;
  /** 0x + 64 hex digits */
  nonce: string;
}

/** One authorization to check or settle on `network`'s `token` (an EIP-3009 contract with its EIP-712 domain). */
export interface X402Transfer {
  network: NetworkConfig;
  token: TokenConfig;
  authorization: Eip3009Authorization;
  /** 0x hex: 65 bytes for an EOA, anything an ERC-1271 account accepts */
  signature: string;
}

export type X402Failure =
  | "not_configured" // no operator key, or the operator cannot pay gas: ours to fix, nothing sent
  | "invalid_signature" // the chain (token) refused the signature
  | "nonce_used" // the authorization was used or cancelled on chain
  | "expired" // the token says the authorization is expired
  | "not_yet_valid" // the token says the authorization is not valid yet
  | "insufficient_funds" // the payer's balance does not cover the value
  | "reverted" // sent and reverted, or refused for another reason
  | "rpc_unavailable" // the endpoint failed: the outcome of a send is unknown
  | "timeout"
  | "worker_crashed";

export interface X402Refusal {
  ok: false;
  reason: X402Failure;
  /** one sentence, safe to show an integrator */
  detail: string;
}

/** What the chain says now: whether the signature verifies (EOA or ERC-1271), the nonce is spent, and the payer's balance. */
export type X402Check = { ok: true; signatureValid: boolean; nonceUsed: boolean; balance: bigint } | X402Refusal;

/** Where an authorization's Transfer landed: the transaction, its block, and the Transfer log's index in it. */
export interface X402Landed {
  txHash: string;
  blockNumber: bigint;
  logIndex: number;
}

/** A landed transferWithAuthorization. */
export type X402Settlement = ({ ok: true } & X402Landed) | X402Refusal;

/**
 * Where an authorization stands on chain, for a settlement whose outcome we did not learn: the transaction that
 * used it, found by the token's EIP-3009 `AuthorizationUsed` log followed by that authorization's own `Transfer` of
 * the authorized value to the payee (null: none found), and whether its nonce is spent at all.
 */
export type X402Landing = { ok: true; landed: X402Landed | null; nonceUsed: boolean } | X402Refusal;

export type X402Operation = { op: "check"; request: X402Transfer } | { op: "settle"; request: X402Transfer } | { op: "find"; request: X402Transfer };

export const refuseX402 = (reason: X402Failure, detail: string): X402Refusal => ({ ok: false, reason, detail });

export interface X402Adapter {
  check(request: X402Transfer): Promise<X402Check>;
  settle(request: X402Transfer): Promise<X402Settlement>;
  find(request: X402Transfer): Promise<X402Landing>;
}
