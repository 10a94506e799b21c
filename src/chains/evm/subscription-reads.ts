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

export async function readAuthorization(client: PublicClient, p: Parties) {
  const [periodAllowance, cap, spent, spentInWindow, periodSeconds, end, windowStart] = await client.readContract({
    address: p.contract,
    abi: SUBSCRIPTIONS_ABI,
    functionName: "authorizations",
    args: [p.payer, p.payee, p.token],
  });
  return { periodAllowance, cap, spent, spentInWindow, periodSeconds, end, windowStart };
}

/** The authorization's current window (the contract computes it: the stored one may have ended). */
export async function readCurrentWindow(client: PublicClient, p: Parties) {
  const [start, spentInWindow] = await client.readContract({
    address: p.contract,
    abi: SUBSCRIPTIONS_ABI,
    functionName: "currentWindow",
    args: [p.payer, p.payee, p.token],
  });
  return { start, spentInWindow };
}

export async function readAutopayState(client: PublicClient, p: Parties): Promise<AutopayState> {
  const [auth, window, approved, balance] = await Promise.all([
    readAuthorization(client, p),
    readCurrentWindow(client, p),
    client.readContract({ address: p.token, abi: erc20Abi, functionName: "allowance", args: [p.payer, p.contract] }),
    client.readContract({ address: p.token, abi: erc20Abi, functionName: "balanceOf", args: [p.payer] }),
  ]);
  // The contract deletes a removed authorization: a zero allowance means there is none.
  const exists = auth.periodAllowance > 0n;
  const leftOfCap = auth.cap > auth.spent ? auth.cap - auth.spent : 0n;
  return {
    ok: true,
    installed: exists && approved > 0n,
    periodAllowance: exists ? auth.periodAllowance : null,
    periodSeconds: exists ? Number(auth.periodSeconds) : null,
    // What the contract lets be pulled now, not what the stored (possibly ended) window has left. The two reads may
    // see different blocks (a new authorization in between), so never below zero.
    availableInWindow: exists && auth.periodAllowance > window.spentInWindow ? auth.periodAllowance - window.spentInWindow : 0n,
    // Both limits bind every pull: the authorization's lifetime cap and the token approval to the contract.
    remaining: exists ? (leftOfCap < approved ? leftOfCap : approved) : 0n,
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
