/**
 * Decoding the envelope Horizon returned, and binding it to the hash that was asked about. The hash is
 * sha256 of (network id, envelope type, transaction body), so recomputing it proves two things at once:
 * these operations are the transaction the payer named, and it was built for this network (an envelope
 * signed for another passphrase hashes differently).
 */
import { FeeBumpTransaction, TransactionBuilder, type Memo, type OperationRecord } from "@stellar/stellar-sdk/base";
import { toHex } from "./hash";

export interface DecodedEnvelope {
  /** the hash Horizon files the transaction under (for a fee bump: the outer, fee-bump hash) */
  hash: string;
  /** fee bumps only: the wrapped transaction's own hash, which Horizon also answers to */
  innerHash: string | null;
  /** the source account of the transaction that carries the operations (G... or M...) */
  source: string;
  memo: Memo;
  operations: OperationRecord[];
}

/** Throws on XDR that is not a transaction envelope; the adapter turns that into `invalid_transaction`. */
export function decodeEnvelope(envelopeXdr: string, networkPassphrase: string): DecodedEnvelope {
  const decoded = TransactionBuilder.fromXDR(envelopeXdr, networkPassphrase);
  const hash = toHex(decoded.hash());
  // A fee bump only pays the fee: the operations, memo and source that prove the payment are the inner
  // transaction's, and the inner transaction's result is what says whether they were applied.
  if (decoded instanceof FeeBumpTransaction) {
    const inner = decoded.innerTransaction;
    return { hash, innerHash: toHex(inner.hash()), source: inner.source, memo: inner.memo, operations: inner.operations };
  }
  return { hash, innerHash: null, source: decoded.source, memo: decoded.memo, operations: decoded.operations };
}

/** Horizon answers `GET /transactions/{h}` for the outer hash and, for fee bumps, the inner hash too. */
export function envelopeHasHash(envelope: DecodedEnvelope, requested: string): boolean {
  const wanted = requested.toLowerCase();
  return envelope.hash === wanted || envelope.innerHash === wanted;
}
