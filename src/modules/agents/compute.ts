/**
 * The auto-topup rules, pure (docs/agents.md#auto-topup): the crossing rule, the funding checks, the UTC day a
 * daily cap counts in, and the chain-side reference of a dispatch. "Now" is always the caller's.
 */
import { sha256Hex } from "../../lib/hash";
import type { FundingMandateRow } from "./rows";

/**
 * What a tick does with one configuration: below the threshold and armed, a top-up (and it disarms); at or above
 * the threshold and disarmed, it arms again; otherwise nothing. One top-up per crossing: a balance still below the
 * threshold at the next tick (the top-up was too small, or not spent yet) sends nothing more.
 */
export function crossingAction(balance: bigint, threshold: bigint, armed: boolean): "dispatch" | "rearm" | "none" {
  if (balance < threshold) return armed ? "dispatch" : "none";
  return armed ? "none" : "rearm";
}

export interface Refusal {
  reason: "mandate_missing" | "mandate_revoked" | "mandate_exhausted" | "daily_cap_exceeded" | "token_mismatch";
  detail: string;
}

/** Why the funding mandate cannot pay `amount` now (its remaining amount, the day's cap), or null when it can. */
export function refuseDraw(mandate: FundingMandateRow | undefined, spentToday: bigint, amount: bigint, tokenSymbol: string): Refusal | null {
  if (!mandate) return { reason: "mandate_missing", detail: "No funding mandate is registered for this network" };
  if (mandate.status !== "ACTIVE") return { reason: "mandate_revoked", detail: "The network's funding mandate was revoked" };
  if (mandate.token_symbol !== tokenSymbol)
    return { reason: "token_mismatch", detail: `The funding mandate draws ${mandate.token_symbol}, the configuration tops up ${tokenSymbol}` };
  const remaining = BigInt(mandate.remaining_amount);
  if (remaining < amount) return { reason: "mandate_exhausted", detail: `${remaining} is left of the funding mandate, less than ${amount}` };
  const cap = BigInt(mandate.daily_cap);
  if (spentToday + amount > cap)
    return { reason: "daily_cap_exceeded", detail: `${spentToday} was dispatched today (UTC) of a daily cap of ${cap}; ${amount} more exceeds it` };
  return null;
}

/** Midnight UTC of `now`'s day: the daily cap counts dispatches from here. */
export const utcDayStart = (now: Date): Date => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));

/** When a crossing refused for the daily cap is tried again: the next UTC midnight, when the cap counts afresh. */
export const nextUtcDay = (now: Date): Date => new Date(utcDayStart(now).getTime() + 86_400_000);

/** The 32-byte reference naming a dispatch on chain (hex, no 0x): derived from its id, so recovery can recompute it. */
export const dispatchReference = (dispatchId: string): string => sha256Hex(`agent-topup:${dispatchId}`);

/** The first retry of a refused crossing (other than the daily cap's) comes this long after it; each refusal in a row doubles it. */
export const RETRY_FIRST_MS = 5 * 60_000;
/** ... up to this: a stuck configuration is still tried a few times a day. */
export const RETRY_LONGEST_MS = 6 * 60 * 60_000;

/**
 * When a refused crossing is tried again: the daily cap counts afresh at the next UTC midnight; any other refusal
 * (no mandate, nothing left, the chain's allowance or a send that never went out) after a backoff doubling with each
 * refusal in a row (`earlier`: those before this one), so an agent stuck below its threshold is topped up once the
 * cause is fixed, without a refusal and its webhook every minute.
 */
export function retryAt(now: Date, reason: string, earlier: number): Date {
  if (reason === "daily_cap_exceeded") return nextUtcDay(now);
  const delay = Math.min(RETRY_FIRST_MS * 2 ** Math.min(earlier, 20), RETRY_LONGEST_MS);
  return new Date(now.getTime() + delay);
}
