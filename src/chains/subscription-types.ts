/**
 * Recurring pulls on chain: what every family's subscription adapter does for the service. The service
 * (one operator key per family, from the environment, read only inside the chain workers) is the party
 * that activates, charges and revokes; the payer installed autopay beforehand (an authorization on our
 * EVM contract plus an ERC-20 approval, an SPL delegate approval, a Stellar token allowance).
 *
 * Every operation names a `reference` (32 bytes, hex): the chain-side idempotency key. The same reference
 * never moves money twice, and `lookup(reference)` finds the operation that used it, so a call whose outcome
 * is unknown (timeout, crash, database down after the chain succeeded) is completed from the chain and
 * never repeated blindly. Amounts are token units (bigint). Like types.ts, all of it crosses the worker
 * boundary: plain data only.
 */
import type { NetworkConfig, TokenConfig } from "./types";

/** Who pays whom in which token: the parties of every subscription operation. */
export interface AutopayParties {
  network: NetworkConfig;
  token: TokenConfig;
  /** the subscriber's wallet (`paymentAccount`): EVM address, Solana owner address, Stellar G... account */
  payer: string;
  /** the team's settlement wallet on this network, the only recipient of pulls */
  payee: string;
  /**
   * EVM: the subscription whose own authorization to read (readAutopay). Absent, an EVM read reports only the
   * payer's ERC-20 approval of the contract and balance. Solana and Stellar keep one allowance per payer account.
   */
  tokenId?: string;
}

/**
 * The payer's EIP-712 consent to one EVM subscription (the contract's `Consent`; payer, payee and token are the
 * parties'). Plain data: it crosses the worker boundary.
 */
export interface EvmConsent {
  periodAllowance: bigint;
  periodSeconds: number;
  cap: bigint;
  /** unix seconds */
  end: number;
  /** the company the subscription pays for, as the consent names it */
  company: string;
  /** 0x + 64 hex digits */
  salt: string;
  /** 0x hex: 65 bytes for an EOA, anything an ERC-1271 account accepts */
  signature: string;
}

/** Whether the payer's consent verifies (EOA or ERC-1271, as the chain says now) and whether its salt is spent. */
export type ConsentCheck = { ok: true; valid: boolean; used: boolean } | SubscriptionRefusal;

/** What the payer has authorized for this payee, as the chain says now. */
export interface AutopayState {
  ok: true;
  /** false when no authorization for this payee and token exists (or it was revoked) */
  installed: boolean;
  /** EVM: the authorization's per-period allowance; null where the family has none (Solana, Stellar) */
  periodAllowance: bigint | null;
  /** EVM: the length of the authorization's windows, seconds (they lie on a grid anchored at its first pull); null where the family has none */
  periodSeconds: number | null;
  /** EVM: what the current window still allows (periodAllowance less what was pulled in it); absent where the family has no windows */
  availableInWindow?: bigint;
  /** what is left of the lifetime cap: EVM cap - spent, Solana delegated amount, Stellar allowance */
  remaining: bigint;
  /** unix seconds after which pulls stop (EVM end, Stellar expiration ledger's close estimate); null: never */
  expiresAt: number | null;
  /** the payer's balance of the token */
  balance: bigint;
}

export interface ActivateRequest extends AutopayParties {
  /** the first period's charge, token units (may be 0 for a trial: nothing moves, the token is minted) */
  amount: bigint;
  /** seconds of the shortest billing period of the plan (monthly 28 days): the on-chain window spacing */
  periodSeconds: number;
  reference: string;
  /** EVM: the payer's consent to this subscription, which the contract checks and spends; null elsewhere */
  consent?: EvmConsent | null;
}

export interface ChargeRequest extends AutopayParties {
  /** the subscription token the activation minted */
  tokenId: string;
  amount: bigint;
  reference: string;
}

export interface RevokeRequest extends AutopayParties {
  tokenId: string;
  reference: string;
}

/** A landed operation: what the database records. */
export interface ChainOperation {
  ok: true;
  txHash: string;
  /** the subscription token (EVM ERC-721 id as a decimal string, Solana mint address, Stellar: the reference) */
  tokenId: string;
  /** token units moved from payer to payee by this operation */
  amount: bigint;
  /** EVM block number, Solana slot, Stellar ledger */
  blockNumber: bigint;
}

/**
 * Why an operation did not happen. `insufficient_*`, `autopay_not_installed`, `autopay_expired`,
 * `consent_invalid`, `consent_used`, `revoked` and `reverted` are the payer's side (the API answers 4xx and nothing is recorded); `not_configured`
 * is ours (no operator key or contract for this network); `rpc_unavailable`, `timeout`, `worker_crashed`
 * leave the outcome unknown: look the reference up before trying again.
 */
export type SubscriptionFailure =
  | "autopay_not_installed"
  | "autopay_expired"
  | "insufficient_allowance"
  | "insufficient_balance"
  | "consent_invalid"
  | "consent_used"
  | "revoked"
  | "reverted"
  | "not_configured"
  | "rpc_unavailable"
  | "timeout"
  | "worker_crashed";

export const OUTCOME_UNKNOWN: ReadonlySet<SubscriptionFailure> = new Set(["rpc_unavailable", "timeout", "worker_crashed"]);

export interface SubscriptionRefusal {
  ok: false;
  reason: SubscriptionFailure;
  /** one sentence safe to show an integrator */
  detail: string;
}

export type OperationResult = ChainOperation | SubscriptionRefusal;
export type AutopayResult = AutopayState | SubscriptionRefusal;
/** `null`: no operation used the reference (safe to send it again). */
export type LookupResult = { ok: true; operation: ChainOperation | null } | SubscriptionRefusal;

export interface SubscriptionAdapter {
  readAutopay(parties: AutopayParties): Promise<AutopayResult>;
  /** one transaction: pull `amount`, mint the subscription token to the payer, record the period allowance */
  activate(request: ActivateRequest): Promise<OperationResult>;
  /** one pull through the installed autopay */
  charge(request: ChargeRequest): Promise<OperationResult>;
  /** stops pulls on chain where the family lets the operator do so (EVM); elsewhere ok with amount 0 and no tx */
  revoke(request: RevokeRequest): Promise<OperationResult>;
  lookup(parties: AutopayParties & { reference: string }): Promise<LookupResult>;
  /** EVM: checks a consent on chain (ERC-1271 accounts answer for themselves) and reads whether its salt is spent */
  verifyConsent?(request: AutopayParties & { consent: EvmConsent }): Promise<ConsentCheck>;
}

export type SubscriptionOperation =
  | { op: "readAutopay"; request: AutopayParties }
  | { op: "activate"; request: ActivateRequest }
  | { op: "charge"; request: ChargeRequest }
  | { op: "revoke"; request: RevokeRequest }
  | { op: "lookup"; request: AutopayParties & { reference: string } }
  | { op: "verifyConsent"; request: AutopayParties & { consent: EvmConsent } };

export const refuseOperation = (reason: SubscriptionFailure, detail: string): SubscriptionRefusal => ({ ok: false, reason, detail });
