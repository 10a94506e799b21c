/**
 * Reads of the subscription contract: the payer's autopay (authorization, ERC-20 approval, balance) and the
 * operation a reference was used by (the contract's `operationByRef`, then that one block's event for the
 * transaction hash: no log scan).
 */
import { erc20Abi, type Hex, type PublicClient } from "viem";
import type { AutopayState, ChainOperation } from "../subscription-types";
import { SUBSCRIPTIONS_ABI } from "./subscription-contract";

export interface Parties {
  contract: Hex;
  payer: Hex;
  payee: Hex;
  token: Hex;
}

/** `operationByRef` kinds (the contract's `Kind` enum). */
export const KIND = { subscribe: 1, charge: 2, revoke: 3 } as const;
const EVENT = { 1: "Subscribed", 2: "Charged", 3: "Revoked" } as const;

/** One subscription's authorization (the contract keeps one per subscription token). */
export async function readAuthorization(client: PublicClient, contract: Hex, tokenId: bigint) {
  const [periodAllowance, cap, spent, spentInWindow, periodSeconds, end, windowStart] = await client.readContract({
    address: contract,
    abi: SUBSCRIPTIONS_ABI,
    functionName: "authorizations",
    args: [tokenId],
  });
  return { periodAllowance, cap, spent, spentInWindow, periodSeconds, end, windowStart };
}

/** The authorization's current window (the contract computes it: the stored one may have ended). */
async function readCurrentWindow(client: PublicClient, contract: Hex, tokenId: bigint) {
  const [start, spentInWindow] = await client.readContract({
    address: contract,
    abi: SUBSCRIPTIONS_ABI,
    functionName: "currentWindow",
    args: [tokenId],
  });
  return { start, spentInWindow };
}

/** Whether the subscription exists for these parties and is not revoked. */
async function liveFor(client: PublicClient, p: Parties, tokenId: bigint): Promise<boolean> {
  const [payer, payee, token, , revoked] = await client.readContract({
    address: p.contract,
    abi: SUBSCRIPTIONS_ABI,
    functionName: "subscriptions",
    args: [tokenId],
  });
  const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
  return same(payer, p.payer) && same(payee, p.payee) && same(token, p.token) && !revoked;
}

/**
 * The payer's autopay. Without a subscription: the ERC-20 approval of the contract (installed when there is one;
 * `remaining` is it) and the balance, what an activation needs besides the payer's consent. With one: that
 * subscription's own authorization, `remaining` its cap less what it spent (the approval is a payer-wide limit,
 * like the balance, and does not count here: it is no part of what this subscription was granted).
 */
export async function readAutopayState(client: PublicClient, p: Parties, tokenId: bigint | null): Promise<AutopayState> {
  const [approved, balance] = await Promise.all([
    client.readContract({ address: p.token, abi: erc20Abi, functionName: "allowance", args: [p.payer, p.contract] }),
    client.readContract({ address: p.token, abi: erc20Abi, functionName: "balanceOf", args: [p.payer] }),
  ]);
  if (tokenId === null)
    return { ok: true, installed: approved > 0n, periodAllowance: null, periodSeconds: null, remaining: approved, expiresAt: null, balance };
  const [live, auth, window] = await Promise.all([
    liveFor(client, p, tokenId),
    readAuthorization(client, p.contract, tokenId),
    readCurrentWindow(client, p.contract, tokenId),
  ]);
  const exists = live && auth.periodAllowance > 0n;
  return {
    ok: true,
    installed: exists && approved > 0n,
    periodAllowance: exists ? auth.periodAllowance : null,
    periodSeconds: exists ? Number(auth.periodSeconds) : null,
    availableInWindow: exists && auth.periodAllowance > window.spentInWindow ? auth.periodAllowance - window.spentInWindow : 0n,
    remaining: exists && auth.cap > auth.spent ? auth.cap - auth.spent : 0n,
    expiresAt: exists ? Number(auth.end) : null,
    balance,
  };
}

export type FoundOperation = ChainOperation & { kind: number };

/** The operation that used `ref`, or null. Throws when the chain says it landed but its event cannot be read. */
export async function findOperation(client: PublicClient, contract: Hex, ref: Hex): Promise<FoundOperation | null> {
  const [kind, tokenId, amount, blockNumber] = await client.readContract({
    address: contract,
    abi: SUBSCRIPTIONS_ABI,
    functionName: "operationByRef",
    args: [ref],
  });
  if (kind === 0) return null;
  const logs = await client.getContractEvents({
    address: contract,
    abi: SUBSCRIPTIONS_ABI,
    eventName: EVENT[kind as keyof typeof EVENT],
    args: { ref },
    fromBlock: blockNumber,
    toBlock: blockNumber,
  });
  const log = logs[0];
  if (!log?.transactionHash) throw new Error(`the event of reference ${ref} is missing from block ${blockNumber}`);
  return { ok: true, kind, txHash: log.transactionHash, tokenId: tokenId.toString(), amount, blockNumber };
}
