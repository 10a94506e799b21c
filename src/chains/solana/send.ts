/**
 * Sending one operator transaction and waiting for it at `finalized`, the commitment payment verification
 * trusts (adapter.ts). Every wait is bounded: the polling stops at `settleMs`, when the transaction's
 * blockhash has expired unseen (it can then never land), or when the endpoint fails. Reads before sending
 * use `confirmed`, the freshest state a cluster will not roll back in practice.
 */
import { Transaction, type Connection, type Keypair, type TransactionInstruction } from "@solana/web3.js";
import { encodeBase58 } from "./base58";

export const READ = "confirmed" as const;

export interface Timing {
  /** deadline of each JSON-RPC request */
  requestMs: number;
  /** how long to wait for a sent transaction to finalize before answering `timeout` */
  settleMs: number;
  /** spacing of status polls */
  pollMs: number;
}

/**
 * `failed`: preflight refused it or it failed on chain; either way nothing moved. `rejected`: the node
 * did not take it (unhealthy, blockhash unknown to it); nothing moved. `expired`: never included and now
 * never will be. `pending`: still settling (or its fate unknown) when the wait ended.
 */
export type Settled = { kind: "finalized"; signature: string } | { kind: "failed"; error: string } | { kind: "rejected" | "expired" | "pending" };

/** A recent blockhash and the last block height at which a transaction carrying it can land. */
export interface RecentBlockhash {
  blockhash: string;
  lastValidBlockHeight: number;
}

/** `timing.recent`: the blockhash to sign with, fixed (and recorded) by the caller beforehand; absent, the latest one. */
export async function sendAndSettle(
  connection: Connection,
  instructions: TransactionInstruction[],
  signers: Keypair[],
  timing: Timing & { recent?: RecentBlockhash },
): Promise<Settled> {
  const { blockhash, lastValidBlockHeight } = timing.recent ?? (await connection.getLatestBlockhash(READ));
  const tx = new Transaction({ feePayer: signers[0]!.publicKey, blockhash, lastValidBlockHeight }).add(...instructions);
  tx.sign(...signers);
  const signature = encodeBase58(tx.signature!);
  const submitted = await submit(connection.rpcEndpoint, tx.serialize(), timing.requestMs);
  if (submitted.kind !== "sent") return submitted;
  return settle(connection, signature, lastValidBlockHeight, timing);
}

type Submitted = { kind: "sent" } | { kind: "failed"; error: string } | { kind: "rejected" };

/**
 * sendTransaction by hand: web3.js's sendRawTransaction folds every JSON-RPC error into one message, and
 * here the code matters. -32002 with an instruction error is a preflight simulation that failed (the node
 * never forwards it); `AlreadyProcessed` means this exact transaction is on chain; any other error answer
 * means the node did not take it. No answer at all (network
 * error, timeout, HTTP error) may still hide a forwarded transaction, so it is treated as sent and watched.
 */
async function submit(rpcUrl: string, wire: Uint8Array, requestMs: number): Promise<Submitted> {
  const params = [Buffer.from(wire).toString("base64"), { encoding: "base64", preflightCommitment: READ }];
  let body: { result?: string; error?: { code?: number; data?: { err?: unknown } } };
  try {
    const response = await fetch(rpcUrl, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "sendTransaction", params }),
      signal: AbortSignal.timeout(requestMs),
    });
    if (response.status === 429) return { kind: "rejected" }; // rate-limited: the node took nothing
    if (!response.ok) return { kind: "sent" };
    body = await response.json();
  } catch {
    return { kind: "sent" };
  }
  if (!body.error) return { kind: "sent" };
  const err = body.error.data?.err;
  // The very same transaction was processed already (an identical one, signed for the same blockhash): watch it.
  if (err === "AlreadyProcessed") return { kind: "sent" };
  const instructionFailed = body.error.code === -32002 && typeof err === "object" && err !== null && "InstructionError" in err;
  return instructionFailed ? { kind: "failed", error: JSON.stringify(err) } : { kind: "rejected" };
}

/**
 * Polls the signature's status until it is finalized or failed. With `lastValidBlockHeight` (a transaction
 * we just sent) a status still absent once the chain has passed that height means it expired unseen; without
 * it (a transaction found in an account's history) only the deadline ends the wait.
 */
export async function settle(connection: Connection, signature: string, lastValidBlockHeight: number | null, timing: Timing): Promise<Settled> {
  const deadline = Date.now() + timing.settleMs;
  const status = async () => (await connection.getSignatureStatuses([signature], { searchTransactionHistory: true })).value[0] ?? null;
  for (;;) {
    let seen = await status();
    if (!seen && lastValidBlockHeight !== null && (await connection.getBlockHeight(READ)) > lastValidBlockHeight) {
      // Past its last valid height it can no longer be included; one more look covers the last valid block.
      seen = await status();
      if (!seen) return { kind: "expired" };
    }
    if (seen?.err) return { kind: "failed", error: JSON.stringify(seen.err) };
    if (seen?.confirmationStatus === "finalized") return { kind: "finalized", signature };
    if (Date.now() + timing.pollMs > deadline) return { kind: "pending" };
    await new Promise((resolve) => setTimeout(resolve, timing.pollMs));
  }
}
