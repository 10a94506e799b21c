/**
 * Reading `result_xdr` ourselves instead of Horizon's `successful` flag. A failed transaction is still
 * recorded in a closed ledger (it paid its fee), with its operations listed in the envelope, so "found
 * on chain" proves nothing until the result code says the operations were applied.
 */
import { xdr } from "@stellar/stellar-sdk/base";
import type { DecodedEnvelope } from "./envelope";
import { toHex } from "./hash";

export type TxOutcome =
  | { kind: "applied" }
  /** the network rejected it (txFailed, txFeeBumpInnerFailed, txBadSeq, ...) */
  | { kind: "failed"; code: string }
  /** the result cannot belong to this envelope: Horizon (or something in front of it) is inconsistent */
  | { kind: "mismatch"; detail: string };

/** Throws on XDR that is not a TransactionResult; the adapter turns that into `invalid_transaction`. */
export function readOutcome(resultXdr: string, envelope: DecodedEnvelope): TxOutcome {
  const { result } = xdr.TransactionResult.fromXdr(resultXdr, "base64");
  const feeBump = envelope.innerHash !== null;
  let opResults: xdr.OperationResult[];
  if (result.type === "txSuccess") {
    if (feeBump) return mismatch("a fee-bump envelope with a plain transaction result");
    opResults = result.results;
  } else if (result.type === "txFeeBumpInnerSuccess") {
    if (!feeBump) return mismatch("a plain envelope with a fee-bump result");
    const pair = result.innerResultPair;
    if (toHex(pair.transactionHash.value) !== envelope.innerHash) return mismatch("the fee-bump result names another inner transaction");
    // The outer code already says the inner one succeeded; the inner code is the one that lists the ops.
    if (pair.result.result.type !== "txSuccess") return { kind: "failed", code: pair.result.result.type };
    opResults = pair.result.result.results;
  } else {
    return { kind: "failed", code: result.type };
  }
  if (opResults.length !== envelope.operations.length) return mismatch("the result lists a different number of operations");
  // Under txSuccess every operation succeeded by definition; checking the payment-like ones anyway
  // catches a result that was paired with the wrong envelope.
  for (const [index, op] of envelope.operations.entries()) {
    const opResult = opResults[index];
    if (!opResult) return mismatch("the result is missing an operation");
    if (op.type === "payment" && !paymentApplied(opResult)) return mismatch(`operation ${index} has no payment result`);
    if (op.type === "pathPaymentStrictReceive" && !pathPaymentApplied(opResult)) return mismatch(`operation ${index} has no path payment result`);
  }
  return { kind: "applied" };
}

const mismatch = (detail: string): TxOutcome => ({ kind: "mismatch", detail });

function paymentApplied(result: xdr.OperationResult): boolean {
  return result.type === "opInner" && result.tr.type === "payment" && result.tr.paymentResult.type === "paymentSuccess";
}

function pathPaymentApplied(result: xdr.OperationResult): boolean {
  return (
    result.type === "opInner" &&
    result.tr.type === "pathPaymentStrictReceive" &&
    result.tr.pathPaymentStrictReceiveResult.type === "pathPaymentStrictReceiveSuccess"
  );
}
