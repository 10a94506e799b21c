/** Small encoders the fake Solana RPC needs to print values exactly as a node does. */
import type { VersionedTransaction } from "@solana/web3.js";
import { InstructionErrorCustom, TransactionErrorInstructionError, type FailedTransactionMetadata } from "litesvm/dist/internal";
import { encodeBase58 } from "../../../src/chains/solana/base58";

export { encodeBase58 };

/** TransactionErrorFieldless, by value: the variants an operator's resent or duplicated transaction meets. */
const FIELDLESS: Record<number, string> = { 6: "AlreadyProcessed", 7: "BlockhashNotFound" };

/** The JSON the RPC prints for a transaction error (serde's externally tagged enum). */
export type RpcTransactionError = string | Record<string, unknown>;

/**
 * litesvm's error classes -> the RPC's JSON. Only the shapes these tests produce are mapped; anything
 * else throws so a test cannot silently serve an invented error.
 */
export function rpcTransactionError(err: ReturnType<FailedTransactionMetadata["err"]>): RpcTransactionError {
  if (err instanceof TransactionErrorInstructionError) {
    const inner = err.err();
    if (inner instanceof InstructionErrorCustom) return { InstructionError: [err.index, { Custom: inner.code }] };
  }
  // Errors without fields arrive as litesvm's (const) enum number; the RPC prints the variant's name.
  if (typeof err === "number" && FIELDLESS[err]) return FIELDLESS[err];
  throw new Error(`no RPC shape mapped for ${String(err)}`);
}

export interface RpcTokenAmount {
  amount: string;
  decimals: number;
  uiAmount: number | null;
  uiAmountString: string;
}

/** What the RPC prints for a raw amount: the integer string, plus the float and decimal-string views. */
export function uiTokenAmount(amount: bigint, decimals: number): RpcTokenAmount {
  const scale = 10n ** BigInt(decimals);
  const fraction = (amount % scale).toString().padStart(decimals, "0").replace(/0+$/, "");
  const uiAmountString = fraction ? `${amount / scale}.${fraction}` : `${amount / scale}`;
  return { amount: amount.toString(), decimals, uiAmount: Number(uiAmountString), uiAmountString };
}

/** The signed message as the RPC prints it for encoding "json". */
export function rpcMessage(tx: VersionedTransaction): Record<string, unknown> {
  const message = tx.message;
  const body: Record<string, unknown> = {
    accountKeys: message.staticAccountKeys.map((k) => k.toBase58()),
    header: message.header,
    recentBlockhash: message.recentBlockhash,
    instructions: message.compiledInstructions.map((ix) => ({
      programIdIndex: ix.programIdIndex,
      accounts: ix.accountKeyIndexes,
      data: encodeBase58(ix.data),
      stackHeight: null,
    })),
  };
  if (message.version === 0) {
    body.addressTableLookups = message.addressTableLookups.map((l) => ({
      accountKey: l.accountKey.toBase58(),
      writableIndexes: l.writableIndexes,
      readonlyIndexes: l.readonlyIndexes,
    }));
  }
  return body;
}
