/**
 * Escrow on chain (contracts/Escrow.sol; docs/escrow.md#on-chain): what the service asks of a network's escrow
 * contract and what it answers. A reservation is named by its payee and request nonce (the contract's key,
 * escrow-consent.ts escrowKey), on the contract the request names: a row's own contract, never the registry's
 * current one, so a network whose contract was replaced still settles the reservations of the old one. Every action has one target status, so an action whose outcome was lost is completed by reading the
 * reservation: already at the target, it landed (its transaction found through the block of the change); never
 * sent twice blindly. Like subscription-types.ts, all of it crosses the worker boundary: plain data only.
 */
import type { EscrowConsent } from "./evm/escrow-consent";
import type { NetworkConfig } from "./types";

/** The contract's statuses, lowercase (its `Status` enum in order; `none`: no reservation under the nonce). */
export const ESCROW_CHAIN_STATUSES = ["none", "authorized", "captured", "disputed", "refunded"] as const;
export type EscrowChainStatus = (typeof ESCROW_CHAIN_STATUSES)[number];

/** A reservation as the contract holds it. */
export interface ChainReservation {
  payer: string;
  payee: string;
  token: string;
  amount: bigint;
  /** unix seconds */
  windowEnd: number;
  status: EscrowChainStatus;
  /** the block of its last change of status (0 when none) */
  changedAt: bigint;
  /** bytes32: keccak256 of the provider whose proof may capture early; zero: none may */
  deliveryProvider: string;
}

/** What the operator sends. */
export type EscrowAction =
  | { action: "reserve"; consent: EscrowConsent; signature: string }
  /** after the window (the contract lets anyone; the service's job sends it) */
  | { action: "capture" }
  /** within the window, on a verified proof of delivery: `proof` (bytes32) names it in the event */
  | { action: "captureEarly"; proof: string }
  /** `reasonHash` (bytes32): keccak256 of the payer's failure reason */
  | { action: "dispute"; reasonHash: string }
  | { action: "resolve"; refund: boolean };

export interface EscrowRequest {
  network: NetworkConfig;
  /** the escrow contract holding (or to hold) the reservation */
  contract: string;
  /** with the nonce, the reservation's key on the contract */
  payee: string;
  requestNonce: string;
}

export type EscrowOperation =
  | { op: "read"; request: EscrowRequest }
  | { op: "verifyConsent"; request: EscrowRequest & { consent: EscrowConsent; signature: string } }
  | { op: "send"; request: EscrowRequest & EscrowAction };

/** The status an action leaves the reservation in. */
export const TARGET_STATUS = (a: EscrowAction): EscrowChainStatus => {
  switch (a.action) {
    case "reserve":
      return "authorized";
    case "capture":
    case "captureEarly":
      return "captured";
    case "dispute":
      return "disputed";
    case "resolve":
      return a.refund ? "refunded" : "captured";
  }
};

/** An action that landed (now or before: `txHash` is the transaction that made the change, null if not found). */
export interface EscrowLanded {
  ok: true;
  txHash: string | null;
  reservation: ChainReservation;
}

/**
 * Why an action did not happen. The payer's side: `consent_invalid`, `consent_expired`, `nonce_used`,
 * `insufficient_balance`, `insufficient_allowance`; the reservation's state: `window_open`, `window_closed`,
 * `wrong_status`, `no_early_capture` (the consent named no delivery provider); ours: `not_configured`; unknown outcome (read the reservation before trying again):
 * `rpc_unavailable`, `timeout`, `worker_crashed`.
 */
export type EscrowFailure =
  | "consent_invalid"
  | "consent_expired"
  | "nonce_used"
  | "insufficient_balance"
  | "insufficient_allowance"
  | "window_open"
  | "window_closed"
  | "wrong_status"
  | "no_early_capture"
  | "not_configured"
  | "reverted"
  | "rpc_unavailable"
  | "timeout"
  | "worker_crashed";

export const ESCROW_OUTCOME_UNKNOWN: ReadonlySet<EscrowFailure> = new Set(["rpc_unavailable", "timeout", "worker_crashed"]);

export interface EscrowRefusal {
  ok: false;
  reason: EscrowFailure;
  /** one sentence safe to show an integrator */
  detail: string;
}

export type EscrowResult = EscrowLanded | EscrowRefusal;
/** `txHash`: the transaction of the reservation's last change of status (null when none or not found). */
/** `chainNow`: the latest block's timestamp (unix seconds), the clock the contract's deadlines are checked against. */
export type EscrowReadResult = { ok: true; reservation: ChainReservation; txHash: string | null; chainNow: number } | EscrowRefusal;
/** Whether the payer's account accepts the consent's signature (ERC-1271 accounts answer for themselves). */
export type EscrowConsentCheck = { ok: true; valid: boolean } | EscrowRefusal;

export interface EscrowAdapter {
  read(request: EscrowRequest): Promise<EscrowReadResult>;
  verifyConsent(request: EscrowRequest & { consent: EscrowConsent; signature: string }): Promise<EscrowConsentCheck>;
  send(request: EscrowRequest & EscrowAction): Promise<EscrowResult>;
}

export const refuseEscrow = (reason: EscrowFailure, detail: string): EscrowRefusal => ({ ok: false, reason, detail });
