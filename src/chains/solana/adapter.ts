/**
 * Solana payment verification: a finalized transaction, signed as the integrator says, that did not fail
 * and raised the recipient's balance of the accepted token by at least the amount due.
 */
import type { VersionedTransactionResponse } from "@solana/web3.js";
import { refuse, type ChainAdapter, type PaymentExpectation, type PaymentVerdict } from "../types";
import { isSignature } from "./base58";
import { judgeNative, judgeToken, nativeFalls, senderOf, tokenFalls, type Judgement } from "./balances";
import { createSolanaRpc, type SolanaRpc } from "./rpc";

export interface SolanaAdapterOptions {
  /** deadline for each JSON-RPC request; a verification makes at most two */
  timeoutMs?: number;
}

export function createSolanaAdapter(options: SolanaAdapterOptions = {}): ChainAdapter {
  const rpc = createSolanaRpc(options.timeoutMs ?? 10_000);
  return {
    // The contract says never throw: anything unforeseen (a response shape we failed to anticipate) is
    // reported as the endpoint answering garbage, which is retryable, rather than as a verdict on the payment.
    verifyPayment: (expectation) =>
      verify(rpc, expectation).catch(() => refuse("rpc_unavailable", "The Solana RPC endpoint answered something that could not be read.")),
  };
}

async function verify(rpc: SolanaRpc, expectation: PaymentExpectation): Promise<PaymentVerdict> {
  const { txHash: signature, token, network } = expectation;
  if (!isSignature(signature)) return refuse("invalid_transaction", "A Solana transaction signature is 64 bytes written in base58.");
  if (!token.native && !token.mint) return refuse("invalid_transaction", `Token ${token.symbol} has no SPL mint configured on ${network.id}.`);

  const lookup = await rpc.lookup(network.rpcUrl, signature);
  switch (lookup.kind) {
    case "unavailable":
      return refuse("rpc_unavailable", "The Solana RPC endpoint could not be reached or returned an error.");
    case "not_found":
      return refuse("not_found", "The Solana network does not know this transaction (yet).");
    case "not_final":
      return refuse("not_final", "The transaction is on chain but not finalized yet.");
  }

  const { tx } = lookup;
  // The node looks transactions up by signature, but we prove nothing from a response we did not ask for.
  if (tx.transaction.signatures[0] !== signature) return refuse("invalid_transaction", "The transaction returned does not carry this signature.");
  const meta = tx.meta;
  if (!meta) return refuse("rpc_unavailable", "The Solana RPC endpoint returned the transaction without its status metadata.");
  if (meta.err !== null) return refuse("failed", "The transaction failed on chain.");

  const keys = accountKeys(tx);
  const judgement: Judgement = token.mint
    ? judgeToken(meta.preTokenBalances ?? [], meta.postTokenBalances ?? [], token.mint, expectation)
    : judgeNative(keys, meta.preBalances, meta.postBalances, expectation);
  if (!judgement.ok) return judgement;

  // Signers are the first keys of the message; the first of them is the fee payer.
  const signerCount = tx.transaction.message.header.numRequiredSignatures;
  const falls = token.mint
    ? tokenFalls(meta.preTokenBalances ?? [], meta.postTokenBalances ?? [], token.mint, new Set(keys.slice(0, signerCount)))
    : nativeFalls(keys.slice(0, signerCount), meta.preBalances, meta.postBalances, meta.fee);
  return {
    ok: true,
    transfers: judgement.rises.map((rise) => {
      // No signer paid it from their own balance (a delegate's transfer, tokens minted or swapped in, a circle
      // that gave the signer its tokens back): the fee payer is named, as the signer who authorized it.
      const sender = senderOf(falls, rise.amount);
      return { transferIndex: rise.accountIndex, amount: rise.amount, payer: sender ?? keys[0] ?? "", payerDebited: sender !== null };
    }),
    blockNumber: BigInt(tx.slot),
    blockHash: null, // finalized Solana slots are not rolled back
  };
}

/** All account keys in balance-array order: static keys, then v0 lookup-table loads (writable, then readonly). */
function accountKeys(tx: VersionedTransactionResponse): string[] {
  const loaded = tx.meta?.loadedAddresses;
  return [...tx.transaction.message.staticAccountKeys, ...(loaded?.writable ?? []), ...(loaded?.readonly ?? [])].map((key) => key.toBase58());
}
