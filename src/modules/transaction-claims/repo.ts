/**
 * One on-chain transaction proves one thing, anywhere: a checkout payment, an invoice payment or a refund, once,
 * for one team. Payments and refunds keep their hashes in two tables, each unique on (network, tx_hash), and
 * neither index sees the other, so two writers checking the other table and then inserting could both commit
 * (a refund and a payment proof of one hash at once). The rule, for every transaction that records one:
 *   1. `lockTransaction` first, before any row lock: a transaction-scoped advisory lock on (network, hash);
 *   2. refuse when it reports what the hash already proved (under the lock, so no writer is in between);
 *   3. insert (the unique index stays the last guard).
 * Writers: payments/settle.ts (checkout), invoices/payments/prove.ts (invoice payment proofs), invoices/refunds/record.ts.
 * `transactionUse` is the same check without the lock, for a cheap refusal before any chain call.
 */
import { queries, run, runOne, type Db } from "../../db/queries";

const Q = queries(["chain_transaction_lock", "chain_transaction_use"]);

/** What a transaction already proved, for any team; null when nothing. */
export type TransactionUse = "payment" | "refund" | null;

export async function transactionUse(db: Db, network: string, txHash: string): Promise<TransactionUse> {
  const row = await runOne<{ proved: "payment" | "refund" }>(db, Q.chain_transaction_use, [network, txHash]);
  return row?.proved ?? null;
}

/** Locks (network, hash) until `tx` ends, then says what it already proved. Call it first in `tx`. */
export async function lockTransaction(tx: Db, network: string, txHash: string): Promise<TransactionUse> {
  await run(tx, Q.chain_transaction_lock, [network, txHash]);
  return transactionUse(tx, network, txHash);
}
