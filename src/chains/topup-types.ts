/**
 * Auto-topup on chain (docs/agents.md#auto-topup): what every family's topup adapter does for the service. The
 * monitor reads many target wallets' token balances in one batched call per network and tick; the funding wallet
 * consented to the service's operator key beforehand (an ERC-20 `approve` of the operator, an SPL `approve`
 * delegating to it), which is what `readFunding` reads; `send` moves one top-up from the funding wallet to a target
 * through that consent. Refusals reuse the subscription vocabulary (subscription-types.ts): the same operator key,
 * the same payer-side reasons, the same "outcome unknown" set. Plain data only: it crosses the worker boundary.
 */
import type { SubscriptionRefusal } from "./subscription-types";
import type { NetworkConfig, TokenConfig } from "./types";

export interface BalancesRequest {
  network: NetworkConfig;
  token: TokenConfig;
  /** target wallets (EVM addresses, Solana owners): each one's balance of `token` */
  wallets: string[];
  /** EVM: balanceOf calls per Multicall3 eth_call (chunks of the set) */
  chunkSize: number;
}

export interface Balances {
  ok: true;
  /** one per wallet, in order; null: not an address of the family (never read) */
  balances: (bigint | null)[];
  /** the JSON-RPC requests the read took (one per chunk) */
  requests: number;
  /** EVM: the block the first chunk was read at (a lost send is looked for from there); null elsewhere */
  blockNumber: bigint | null;
}

export interface FundingRequest {
  network: NetworkConfig;
  token: TokenConfig;
  funder: string;
}

/** What the funding wallet has consented to: the operator it names and how much of the token it lets it move. */
export interface FundingState {
  ok: true;
  /** the service's operator address on this family: the spender (EVM) or delegate (Solana) the funder must approve */
  operator: string;
  /** EVM allowance(funder, operator); Solana delegated amount when the delegate is the operator, else 0 */
  allowance: bigint;
  balance: bigint;
}

export interface TopupSend {
  network: NetworkConfig;
  token: TokenConfig;
  funder: string;
  target: string;
  amount: bigint;
  /** 32 bytes of hex: the dispatch's chain-side name, which a lookup finds it by */
  reference: string;
  /** EVM: where a lookup starts searching (the block of the balance read that triggered it) */
  fromBlock?: bigint;
  /** what `sign` answered and the service recorded on the dispatch before the send: the send uses exactly this */
  signed?: SignedSend;
}

/**
 * A send fixed before it is broadcast, so that the dispatch records how to tell, later, that it can no longer land
 * (docs/agents.md#recovery). EVM: the operator transaction signed with its nonce (its hash is final); once the
 * operator's mined nonce passes it without that hash landing, it never will. Solana: the recent blockhash the
 * transaction will carry; past `lastValidBlockHeight` a transaction with it can no longer land.
 */
export interface SignedSend {
  /** EVM: the signed transaction's hash; null on Solana */
  txHash: string | null;
  /** EVM: the operator nonce it uses; null on Solana */
  nonce: number | null;
  /** Solana: the last block height at which the blockhash is valid; null on EVM */
  lastValidBlockHeight: number | null;
  /** EVM: the serialized signed transaction; Solana: the recent blockhash. Empty in a lookup (not kept) */
  envelope: string;
}

export type TopupSigned = ({ ok: true } & SignedSend) | SubscriptionRefusal;

export interface TopupLanded {
  ok: true;
  txHash: string;
  blockNumber: bigint;
}

/** A lookup's answer: the landed send, or none; `inFlight`: none yet, but it may still land (keep it pending). */
export type TopupLookup = { ok: true; landed: TopupLanded | null; inFlight: boolean } | SubscriptionRefusal;

export type BalancesResult = Balances | SubscriptionRefusal;
export type FundingResult = FundingState | SubscriptionRefusal;
export type TopupSendResult = TopupLanded | SubscriptionRefusal;

export interface TopupAdapter {
  balances(request: BalancesRequest): Promise<BalancesResult>;
  readFunding(request: FundingRequest): Promise<FundingResult>;
  /** checks the send (simulation, payer side) and fixes it without broadcasting anything */
  sign(request: TopupSend): Promise<TopupSigned>;
  /** broadcasts what `sign` fixed (`request.signed`) and waits for it */
  send(request: TopupSend): Promise<TopupSendResult>;
  lookup(request: TopupSend): Promise<TopupLookup>;
  /** a signed send that will not be broadcast gives its operator nonce back (EVM; no-op elsewhere) */
  release(request: TopupSend): Promise<{ ok: true } | SubscriptionRefusal>;
}

export type TopupOperation =
  | { op: "balances"; request: BalancesRequest }
  | { op: "readFunding"; request: FundingRequest }
  | { op: "sign"; request: TopupSend }
  | { op: "send"; request: TopupSend }
  | { op: "lookup"; request: TopupSend }
  | { op: "release"; request: TopupSend };
