/**
 * Pure rules that read a finalized transaction's balance changes against an expectation. Amounts are
 * read from integer strings (`uiTokenAmount.amount`) or integer lamports into bigint; the `uiAmount`
 * floats in the RPC response are never looked at.
 */
import type { TokenBalance } from "@solana/web3.js";
import { parseTokenUnits } from "../../lib/money/units";
import { refuse, type PaymentExpectation, type PaymentRefusal } from "../types";

/** A qualifying rise: which account rose (its index in the message's account keys) and by how much. */
export interface Rise {
  accountIndex: number;
  amount: bigint;
}

export type Judgement = { ok: true; rises: Rise[] } | PaymentRefusal;

/** What the payment must prove: who receives (a wallet: the owner of the token account, or the SOL account) and at least how much. */
export type Expected = Pick<PaymentExpectation, "recipient" | "amount">;

/** Parses an RPC integer string; anything else means the endpoint answered garbage, so it throws. */
export function units(text: string): bigint {
  const parsed = parseTokenUnits(text);
  if (!parsed.ok) throw new Error("token amount is not an integer string");
  return parsed.value;
}

/**
 * SPL tokens. The recipient is the wallet that OWNS the receiving token account, so any token account
 * of theirs counts (the associated one or another). Each account that rose by at least the amount is a
 * qualifying transfer; rises are not summed across accounts.
 */
export function judgeToken(pre: TokenBalance[], post: TokenBalance[], mint: string, expected: Expected): Judgement {
  const { recipient, amount } = expected;
  const before = new Map<number, bigint>();
  for (const entry of pre) if (entry.mint === mint) before.set(entry.accountIndex, units(entry.uiTokenAmount.amount));

  let mintRose = false;
  let recipientRose = false;
  const rises: Rise[] = [];
  for (const entry of post) {
    if (entry.mint !== mint) continue;
    // An account created inside the transaction has no pre entry: it started at zero.
    const rise = units(entry.uiTokenAmount.amount) - (before.get(entry.accountIndex) ?? 0n);
    if (rise <= 0n) continue;
    mintRose = true;
    if (entry.owner !== recipient) continue;
    recipientRose = true;
    if (rise >= amount) rises.push({ accountIndex: entry.accountIndex, amount: rise });
  }

  if (rises.length > 0) return { ok: true, rises: rises.sort((a, b) => a.accountIndex - b.accountIndex) };
  if (!mintRose) return refuse("wrong_token", "The transaction moved none of the accepted token to anyone.");
  if (!recipientRose) return refuse("wrong_recipient", "The accepted token moved, but to no account owned by the recipient.");
  return refuse("amount_too_low", "The recipient received the accepted token, but less than the amount due.");
}

/**
 * Native SOL: the recipient's lamport balance change. It must be a key of the message (static or loaded);
 * `keys` lists them in the order the balance arrays use.
 */
export function judgeNative(keys: string[], pre: number[], post: number[], expected: Expected): Judgement {
  const { recipient, amount } = expected;
  const rises: Rise[] = [];
  let recipientRose = false;
  keys.forEach((key, accountIndex) => {
    if (key !== recipient) return;
    const rise = lamports(post[accountIndex]) - lamports(pre[accountIndex]);
    if (rise <= 0n) return;
    recipientRose = true;
    if (rise >= amount) rises.push({ accountIndex, amount: rise });
  });
  if (rises.length > 0) return { ok: true, rises };
  if (!recipientRose) return refuse("wrong_recipient", "The recipient's SOL balance did not rise in this transaction.");
  return refuse("amount_too_low", "The recipient received SOL, but less than the amount due.");
}

/**
 * Who sent a rise of `amount`: a SIGNER of the transaction whose own balance of the token fell, net of
 * whatever they received, by at least that amount; of several, the closest fall (a sponsor that also paid
 * a larger rent is not the sender of a smaller payment). Signed, because only the owner's signature moves
 * the owner's tokens (a delegate's transfer shows the owner's balance fall, but not the owner's
 * signature); net, because moving tokens between one's own accounts pays no one. Never simply the fee
 * payer: a sponsor (a relayer, an agent platform) may sign and pay the fee for someone else's transfer.
 * null when no signer qualifies (tokens minted straight to the recipient, a swap routed through a pool):
 * the caller then names the fee payer, as the signer who authorized it, with `payerDebited` false.
 */
export function senderOf(falls: Map<string, bigint>, amount: bigint): string | null {
  let best: string | null = null;
  let closest = 0n;
  for (const [signer, fall] of falls) {
    if (fall >= amount && (best === null || fall < closest)) [best, closest] = [signer, fall];
  }
  return best;
}

/** Each signer's net fall in balance of the mint, over all their token accounts; only falls are kept. */
export function tokenFalls(pre: TokenBalance[], post: TokenBalance[], mint: string, signers: ReadonlySet<string>): Map<string, bigint> {
  const net = new Map<string, bigint>();
  const add = (entries: TokenBalance[], sign: bigint) => {
    for (const entry of entries) {
      if (entry.mint !== mint || !entry.owner || !signers.has(entry.owner)) continue;
      net.set(entry.owner, (net.get(entry.owner) ?? 0n) + sign * units(entry.uiTokenAmount.amount));
    }
  };
  add(pre, 1n); // an account closed inside the transaction has no post entry: it ended at zero
  add(post, -1n);
  return new Map([...net].filter(([, fall]) => fall > 0n));
}

/**
 * Each signer's net fall in lamports, the fee (always taken from the first key) left out; only falls.
 * `signers` are the first keys of the message, in the order the balance arrays use.
 */
export function nativeFalls(signers: string[], pre: number[], post: number[], fee: number): Map<string, bigint> {
  const falls = new Map<string, bigint>();
  for (let i = 0; i < signers.length; i++) {
    const fall = lamports(pre[i]) - lamports(post[i]) - (i === 0 ? lamports(fee) : 0n);
    if (fall > 0n) falls.set(signers[i]!, fall);
  }
  return falls;
}

/**
 * Lamports arrive as JSON numbers and are parsed as doubles before we see them. Above 2^53 (about
 * 9 million SOL in one account) they may already be rounded, so such a balance cannot prove an exact
 * amount: throw rather than verify on a rounded figure.
 */
function lamports(value: number | undefined): bigint {
  if (value === undefined || !Number.isSafeInteger(value) || value < 0) throw new Error("lamport balance is not an exact integer");
  return BigInt(value);
}
