/**
 * EVM payment verification with viem. A payment is proven when, in this order:
 *  1. the receipt exists and succeeded;
 *  2. a `Transfer` log of the accepted token's own contract pays the recipient at least the amount
 *     (native coin: the transaction itself sends exactly the amount to the recipient);
 *  3. the block is final: `confirmations` blocks including its own, or at or below the `finalized` tag
 *     when the network is configured with 0;
 *  4. the block is still canonical: the chain's block at that height has the receipt's block hash.
 * Steps 1-2 are checked first so a wrong payment is refused at once instead of "not final" for minutes.
 */
import {
  isAddressEqual,
  getAddress,
  TransactionReceiptNotFoundError,
  TransactionNotFoundError,
  BlockNotFoundError,
  type PublicClient,
  type TransactionReceipt,
} from "viem";
import {
  refuse,
  type ChainAdapter,
  type NetworkConfig,
  type PaymentExpectation,
  type PaymentVerdict,
  type VerifiedTransfer,
  type PaymentRefusal,
} from "../types";
import { matchErc20Transfers } from "./transfers";
import { isEvmTxHash } from "./hash";
import { clientFor, wrongChain } from "./client";

async function receiptOrPending(client: PublicClient, hash: `0x${string}`): Promise<TransactionReceipt | PaymentRefusal> {
  try {
    return await client.getTransactionReceipt({ hash });
  } catch (error) {
    if (!(error instanceof TransactionReceiptNotFoundError)) throw error;
  }
  try {
    await client.getTransaction({ hash });
    return refuse("not_final", "The transaction is pending and not yet in a block");
  } catch (error) {
    if (error instanceof TransactionNotFoundError)
      return refuse("not_found", "No transaction with this hash on the network (or it was dropped by a reorg)");
    throw error;
  }
}

async function nativeTransfer(
  client: PublicClient,
  receipt: TransactionReceipt,
  want: PaymentExpectation,
): Promise<VerifiedTransfer[] | PaymentRefusal> {
  const tx = await client.getTransaction({ hash: receipt.transactionHash });
  if (tx.value === 0n) return refuse("wrong_token", "The transaction moved none of the native coin");
  if (!tx.to || !isAddressEqual(tx.to, want.recipient as `0x${string}`))
    return refuse("wrong_recipient", "The coin was not sent to the expected recipient");
  // Native payments must be exact: there is no log to tell an overpayment from an unrelated call's value. An
  // overpayment keeps the reason of a wrong amount (amount_too_low), with a sentence that says what is wrong.
  if (tx.value < want.amount) return refuse("amount_too_low", `The transaction sent ${tx.value} wei, less than ${want.amount}`);
  if (tx.value > want.amount)
    return refuse(
      "amount_too_low",
      `The transaction sent ${tx.value} wei, more than ${want.amount}: a native-coin transfer must be exactly the amount (nothing on chain tells an overpayment from value sent for something else)`,
    );
  return [{ transferIndex: 0, amount: tx.value, payer: getAddress(tx.from), payerDebited: true }];
}

async function finality(client: PublicClient, network: NetworkConfig, receipt: TransactionReceipt): Promise<PaymentRefusal | null> {
  if (network.confirmations > 0) {
    const head = await client.getBlockNumber({ cacheTime: 0 });
    const confirmations = head - receipt.blockNumber + 1n;
    if (confirmations < BigInt(network.confirmations)) {
      return refuse("not_final", `${confirmations} of ${network.confirmations} confirmations`);
    }
  } else {
    const finalized = await client.getBlock({ blockTag: "finalized" });
    if (finalized.number < receipt.blockNumber) return refuse("not_final", "The block is not finalized yet");
  }
  let canonical;
  try {
    canonical = await client.getBlock({ blockNumber: receipt.blockNumber });
  } catch (error) {
    if (error instanceof BlockNotFoundError) return refuse("not_found", "The payment's block is no longer on the chain (reorg)");
    throw error;
  }
  if (canonical.hash !== receipt.blockHash) return refuse("not_found", "The payment's block was replaced by a reorg");
  return null;
}

async function verify(want: PaymentExpectation): Promise<PaymentVerdict> {
  if (!isEvmTxHash(want.txHash)) return refuse("invalid_transaction", "An EVM transaction hash is 0x and 64 hex digits");
  const client = clientFor(want.network);
  const otherChain = await wrongChain(client, want.network);
  if (otherChain) return refuse("rpc_unavailable", otherChain);
  const receipt = await receiptOrPending(client, want.txHash.toLowerCase() as `0x${string}`);
  if ("ok" in receipt) return receipt;
  if (receipt.status !== "success") return refuse("failed", "The transaction reverted");
  const transfers = want.token.native
    ? await nativeTransfer(client, receipt, want)
    : matchErc20Transfers(receipt.logs, { contract: want.token.contract!, recipient: want.recipient, amount: want.amount });
  if ("ok" in transfers) return transfers;
  const notFinal = await finality(client, want.network, receipt);
  if (notFinal) return notFinal;
  return { ok: true, transfers, blockNumber: receipt.blockNumber, blockHash: receipt.blockHash };
}

export const evmAdapter: ChainAdapter = {
  async verifyPayment(want) {
    try {
      return await verify(want);
    } catch (error) {
      // Anything viem throws past the cases above is the endpoint failing us (down, timeout, bad JSON).
      const name = error instanceof Error ? error.name : "Error";
      return refuse("rpc_unavailable", `The network's RPC endpoint did not answer usably (${name})`);
    }
  },
};
