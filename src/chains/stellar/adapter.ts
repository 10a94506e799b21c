/**
 * Stellar payment verification: one Horizon lookup, then every decision from the XDR we decode ourselves.
 *
 * Order: hash shape (no network call) -> Horizon -> envelope decodes and hashes to the asked hash ->
 * result says applied -> memo -> operations. The memo comes before the operations because it is what
 * says the transaction is meant for this payment at all.
 *
 * There is no `not_final` for Stellar: consensus closes a ledger final (no forks, no reorgs), and Horizon
 * only serves transactions from closed ledgers. Until then it answers 404, which is `not_found`
 * (retryable). For the same reason `blockHash` is null.
 */
import { refuse, type ChainAdapter, type PaymentExpectation, type PaymentVerdict } from "../types";
import { decodeEnvelope, envelopeHasHash, type DecodedEnvelope } from "./envelope";
import { isTxHash } from "./hash";
import { fetchTransaction, HORIZON_TIMEOUT_MS } from "./horizon";
import { matchPayments } from "./match";
import { describeMismatch, memoMatches } from "./memo";
import { readOutcome } from "./result";

export interface StellarAdapterOptions {
  /** per Horizon request, connect to last byte */
  timeoutMs?: number;
}

export function createStellarAdapter(options: StellarAdapterOptions = {}): ChainAdapter {
  const timeoutMs = options.timeoutMs ?? HORIZON_TIMEOUT_MS;
  return {
    async verifyPayment(expectation) {
      try {
        return await verify(expectation, timeoutMs);
      } catch {
        // The contract is a verdict, never an exception: anything the SDK throws on odd input lands here.
        return refuse("invalid_transaction", "The transaction could not be decoded");
      }
    },
  };
}

async function verify(expectation: PaymentExpectation, timeoutMs: number): Promise<PaymentVerdict> {
  const { network, token, txHash } = expectation;
  if (!isTxHash(txHash)) return refuse("invalid_transaction", "A Stellar transaction hash is 64 hexadecimal characters");
  // Configuration errors; the registry should never let these through, and without them nothing can be proven.
  if (!network.networkPassphrase) return refuse("invalid_transaction", "The Stellar network has no passphrase configured");
  if (!token.native && !(token.assetCode && token.assetIssuer)) return refuse("invalid_transaction", "The token has no Stellar asset configured");

  const lookup = await fetchTransaction(network.rpcUrl, txHash.toLowerCase(), timeoutMs);
  if (!lookup.ok) return lookup;
  const { tx } = lookup;

  let envelope: DecodedEnvelope;
  try {
    envelope = decodeEnvelope(tx.envelope_xdr, network.networkPassphrase);
  } catch {
    return refuse("invalid_transaction", "Horizon returned an envelope that does not decode");
  }
  if (!envelopeHasHash(envelope, txHash)) {
    return refuse("invalid_transaction", "The transaction body does not hash to the given hash on this network");
  }

  const outcome = readOutcome(tx.result_xdr, envelope);
  if (outcome.kind === "mismatch") return refuse("invalid_transaction", `The transaction result does not fit its envelope: ${outcome.detail}`);
  if (outcome.kind === "failed") return refuse("failed", `The transaction failed on chain (${outcome.code})`);
  // Either source saying failure is enough; the flag alone is never enough to say success.
  if (!tx.successful) return refuse("failed", "Horizon reports the transaction as failed");

  if (expectation.memo !== undefined && !memoMatches(envelope.memo, expectation.memo)) {
    return refuse("memo_mismatch", `The payment must carry the expected memo; it carries ${describeMismatch(envelope.memo)}`);
  }

  const matched = matchPayments(envelope.operations, envelope.source, expectation);
  if (!Array.isArray(matched)) return matched;
  return { ok: true, transfers: matched, blockNumber: BigInt(tx.ledger), blockHash: null };
}
