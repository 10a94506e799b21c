/**
 * sendTransaction, then getTransaction until the network settles the transaction. The hash is known before
 * sending, so a send whose answer was lost is still followed by polling that hash. The transaction's upper
 * time bound makes "never included" a final answer: once a ledger has closed after it, no ledger can
 * include it any more, and its sequence number was never consumed.
 */
import type { rpc, Transaction } from "@stellar/stellar-sdk";
import { toHex } from "./hash";
import { refuse } from "./refusal";
import type { StellarContext } from "./soroban-context";

export type SendOutcome =
  | { kind: "landed"; hash: string; ledger: number }
  /** not accepted, nothing will happen: another transaction of the operator holds or took the sequence number */
  | { kind: "superseded" }
  /** accepted (or maybe), but its time bound passed without a ledger including it: nothing happened */
  | { kind: "expired" };

/** Codes that say the operator account itself cannot send: a deployment problem, not the payer's. */
const OPERATOR_CODES = new Set(["txBadAuth", "txBadAuthExtra", "txNoAccount", "txInsufficientBalance"]);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function sendAndWait(ctx: StellarContext, tx: Transaction, maxTime: number): Promise<SendOutcome> {
  const hash = toHex(tx.hash());
  let sent: rpc.Api.SendTransactionResponse | null = null;
  try {
    sent = await ctx.server.sendTransaction(tx);
  } catch {
    // The answer is lost, not necessarily the transaction: poll its hash all the same.
  }
  if (sent?.status === "TRY_AGAIN_LATER") return { kind: "superseded" };
  if (sent?.status === "ERROR") {
    const code = sent.errorResult?.result.type ?? "unknown";
    if (code === "txBadSeq") return { kind: "superseded" };
    if (OPERATOR_CODES.has(code)) refuse("not_configured", `The Stellar operator account cannot send transactions (${code})`);
    if (code === "txTooLate" || code === "txTooEarly") refuse("rpc_unavailable", "The transaction's time bound was refused; nothing moved");
    refuse("reverted", `The network refused the transfer (${code}); nothing moved`);
  }
  return poll(ctx, hash, maxTime);
}

async function poll(ctx: StellarContext, hash: string, maxTime: number): Promise<SendOutcome> {
  const deadline = Date.now() + ctx.timing.pollBudgetMs;
  for (;;) {
    const status = await ctx.server.getTransaction(hash).catch(() => null);
    if (status?.status === "SUCCESS") return { kind: "landed", hash, ledger: status.ledger };
    if (status?.status === "FAILED") {
      refuse("reverted", `The transfer failed on chain (${status.resultXdr.result.type}); nothing moved`);
    }
    if (status && Number(status.latestLedgerCloseTime) > maxTime) return { kind: "expired" };
    if (Date.now() + ctx.timing.pollIntervalMs > deadline) {
      refuse("timeout", "The transfer was sent but has not settled yet; look the reference up before retrying");
    }
    await sleep(ctx.timing.pollIntervalMs);
  }
}
