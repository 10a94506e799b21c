/**
 * Finding the operation a reference names, from the chain alone. Each reference has one account
 * (operator.ts operationKeypair) that its operation creates; the oldest successful transaction touching
 * that account, paid by the operator and carrying the reference in its memo, is the operation. What it
 * moved is read from the payee's token balances before and after, as payment verification reads them.
 */
import type { Connection, PublicKey, TokenBalance, VersionedTransactionResponse } from "@solana/web3.js";
import type { ChainOperation } from "../subscription-types";
import type { Parties } from "./autopay";
import { units } from "./balances";
import { READ, settle, type Timing } from "./send";
import { MEMO_PROGRAM } from "./spl";

export type OperationKind = "activate" | "charge" | "topup";

/** The memo every subscription transaction carries: readable in an explorer, and how lookups recognize it. */
export const operationMemo = (kind: OperationKind, reference: string, tokenId: string) => `subscription ${kind} ${reference} ${tokenId}`;

export type Found = { kind: "found"; operation: ChainOperation } | { kind: "none" | "pending" | "foreign" };

/** Whose operation is looked for: between these parties, paid by our operator, carrying this reference. */
export interface Ours {
  parties: Parties;
  operator: PublicKey;
  reference: string;
}

const PAGE = 1_000;
const MAX_PAGES = 10;
/** Transactions of others that may precede ours on the account (lamports sent to its address), tolerated. */
const CANDIDATES = 3;

/**
 * The operation created `marker`, if any: `none` when the account does not exist (nothing landed, though
 * a transaction may still be in flight), `pending` when ours is confirmed but not final within the wait,
 * `foreign` when the account exists but no transaction of ours created it.
 */
export async function findOperation(connection: Connection, marker: PublicKey, ours: Ours, timing: Timing): Promise<Found> {
  if (!(await connection.getAccountInfo(marker, READ))) return { kind: "none" };
  const candidates = (await history(connection, marker)).slice(0, CANDIDATES);
  for (const signature of candidates) {
    const settled = await settle(connection, signature, null, timing);
    if (settled.kind === "pending") return { kind: "pending" };
    if (settled.kind !== "finalized") continue;
    const operation = await readOperation(connection, signature, ours);
    if (operation) return { kind: "found", operation };
  }
  return { kind: "foreign" };
}

/** The account's successful transactions, oldest first. */
async function history(connection: Connection, address: PublicKey): Promise<string[]> {
  const newestFirst: { signature: string; err: unknown }[] = [];
  let before: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const entries = await connection.getSignaturesForAddress(address, { limit: PAGE, before }, READ);
    newestFirst.push(...entries);
    if (entries.length < PAGE) break;
    before = entries[entries.length - 1]!.signature;
  }
  return newestFirst
    .filter((entry) => entry.err === null)
    .map((entry) => entry.signature)
    .reverse();
}

/** A finalized transaction of ours for this reference, as the operation it was; null for anything else. */
export async function readOperation(connection: Connection, signature: string, ours: Ours): Promise<ChainOperation | null> {
  const { parties, operator, reference } = ours;
  const tx = await connection.getTransaction(signature, { commitment: "finalized", maxSupportedTransactionVersion: 0 });
  if (!tx?.meta || tx.meta.err !== null) return null;
  if (!tx.transaction.message.staticAccountKeys[0]?.equals(operator)) return null; // the fee payer: only we pay for ours
  const [tag, , memoReference, tokenId] = memoOf(tx)?.split(" ") ?? [];
  if (tag !== "subscription" || memoReference !== reference || !tokenId) return null;
  return {
    ok: true,
    txHash: signature,
    tokenId,
    amount: received(tx.meta.preTokenBalances ?? [], tx.meta.postTokenBalances ?? [], parties),
    blockNumber: BigInt(tx.slot),
  };
}

function memoOf(tx: VersionedTransactionResponse): string | null {
  const message = tx.transaction.message;
  const instruction = message.compiledInstructions.find((ix) => message.staticAccountKeys[ix.programIdIndex]?.equals(MEMO_PROGRAM));
  return instruction ? new TextDecoder().decode(instruction.data) : null;
}

/** The payee's net gain of the token over all its accounts in the transaction (0 for a trial's activation). */
function received(pre: TokenBalance[], post: TokenBalance[], parties: Parties): bigint {
  const payee = parties.payee.toBase58();
  const mint = parties.mint.toBase58();
  const sum = (entries: TokenBalance[]) =>
    entries.filter((entry) => entry.owner === payee && entry.mint === mint).reduce((total, entry) => total + units(entry.uiTokenAmount.amount), 0n);
  return sum(post) - sum(pre);
}
