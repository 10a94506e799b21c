/**
 * The flow an activation and a charge share. Read first (the reference's account, the payer's and payee's
 * token accounts, the operator, whatever the operation adds); a reference already used answers with its
 * operation and sends nothing; a payer who cannot pay is refused before anything is sent; then one
 * transaction, signed by the operator and the reference's key, waited for at `finalized`. A failure is
 * explained from a fresh read, so a race (the payer revoked between our read and the send) still answers
 * with the payer's real reason.
 */
import type { AccountInfo, Connection, Keypair, PublicKey, TransactionInstruction } from "@solana/web3.js";
import { refuseOperation, type OperationResult, type SubscriptionRefusal } from "../subscription-types";
import { refusePull, type Parties } from "./autopay";
import { findOperation, readOperation } from "./landed";
import { operationKeypair, type Operator } from "./operator";
import { READ, sendAndSettle, type RecentBlockhash, type Timing } from "./send";
import { decodeTokenAccount, TOKEN_ACCOUNT_SIZE } from "./spl";

/** The chain side of one operation: the endpoint, the operator, the waits, rent by account size. */
export interface SolanaChain {
  connection: Connection;
  operator: Operator;
  timing: Timing;
  rent(space: number): Promise<number>;
}

/** What is pulled: `amount` from the payer to the payee, under a canonical reference (operator.ts canonicalReference). */
export interface Pull {
  amount: bigint;
  reference: string;
  parties: Parties;
  /** the blockhash the transaction must carry, when the caller recorded it before the send */
  recent?: RecentBlockhash;
}

/** How an operation differs: what else it reads and checks, what it creates, what it sends. */
export interface PullPlan {
  /** accounts read together with the parties', handed to `check` */
  extra: PublicKey[];
  check(extra: (AccountInfo<Buffer> | null)[]): Promise<SubscriptionRefusal | null>;
  /** sizes of the accounts the transaction creates (the operator pays their rent); the payee's comes on top if missing */
  creates: number[];
  /** the reference's key is `marker`: the account it names is created by these instructions */
  instructions(marker: Keypair): Promise<TransactionInstruction[]>;
}

const SIGNATURE_FEE = 5_000; // lamports per signature; two signatures

export async function pull(chain: SolanaChain, request: Pull, plan: PullPlan): Promise<OperationResult> {
  const { connection, operator } = chain;
  const marker = await operationKeypair(operator, request.reference);
  const { parties } = request;
  const keys = [marker.publicKey, parties.payerAccount, parties.payeeAccount, operator.keypair.publicKey, ...plan.extra];
  const [used, payer, payee, funds, ...extra] = await connection.getMultipleAccountsInfo(keys, READ);
  if (used) return existing(chain, marker.publicKey, request);
  const creates = payee ? plan.creates : [...plan.creates, TOKEN_ACCOUNT_SIZE];
  const refusal =
    (await plan.check(extra)) ??
    refusePull(decodeTokenAccount(payer ?? null), parties, operator.keypair.publicKey, request.amount) ??
    (await refuseFunds(chain, funds ?? null, creates));
  if (refusal) return refusal;

  const timing = { ...chain.timing, recent: request.recent };
  const settled = await sendAndSettle(connection, await plan.instructions(marker), [operator.keypair, marker], timing);
  switch (settled.kind) {
    case "finalized": {
      const operation = await readOperation(connection, settled.signature, {
        parties,
        operator: operator.keypair.publicKey,
        reference: request.reference,
      });
      return (
        operation ?? refuseOperation("rpc_unavailable", "The transaction finalized but the endpoint did not serve it back; look the reference up.")
      );
    }
    case "failed":
      return explain(chain, marker.publicKey, request);
    case "rejected":
    case "expired":
      return refuseOperation(
        "rpc_unavailable",
        "The transaction was not included by the network and nothing moved; send it again with the same reference.",
      );
    case "pending":
      return refuseOperation("timeout", "The transaction is still settling; look the reference up before anything else.");
  }
}

/** The operation that already used the reference, waited for until final. */
async function existing(chain: SolanaChain, marker: PublicKey, request: Pull): Promise<OperationResult> {
  const ours = { parties: request.parties, operator: chain.operator.keypair.publicKey, reference: request.reference };
  const found = await findOperation(chain.connection, marker, ours, chain.timing);
  switch (found.kind) {
    case "found":
      return found.operation;
    case "pending":
      return refuseOperation("timeout", "An operation with this reference is on chain but not final yet; look the reference up shortly.");
    case "foreign":
      return refuseOperation("reverted", "This reference's account on chain was not created by the service; nothing moved: use a new reference.");
    case "none":
      return refuseOperation("rpc_unavailable", "The endpoint's answers about this reference disagree; look it up again.");
  }
}

/** Why a transaction failed, from a fresh read: a concurrent same-reference operation, the payer's side, or neither. */
async function explain(chain: SolanaChain, marker: PublicKey, request: Pull): Promise<OperationResult> {
  const [used, payer] = await chain.connection.getMultipleAccountsInfo([marker, request.parties.payerAccount], READ);
  if (used) return existing(chain, marker, request);
  const payerSide = refusePull(decodeTokenAccount(payer ?? null), request.parties, chain.operator.keypair.publicKey, request.amount);
  return payerSide ?? refuseOperation("reverted", "The transaction failed on chain and nothing moved.");
}

/** The operator pays fees and rent and must stay rent-exempt itself: short of that, it is our problem, not the payer's. */
async function refuseFunds(chain: SolanaChain, operator: AccountInfo<Buffer> | null, creates: number[]): Promise<SubscriptionRefusal | null> {
  let needed = 2 * SIGNATURE_FEE + (await chain.rent(0));
  for (const size of creates) needed += await chain.rent(size);
  if ((operator?.lamports ?? 0) >= needed) return null;
  return refuseOperation("not_configured", "The service's Solana operator account holds too little SOL for this transaction's fees and rent.");
}
