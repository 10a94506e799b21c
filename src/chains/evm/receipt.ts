/**
 * Waiting for the receipt of the operator's own transaction. viem's waitForTransactionReceipt asks once, then polls
 * at one fixed interval: a multi-second default, or a second as this client had it, which is most of an operation's
 * time on a chain that makes a block every 250 ms (and all of an activation's latency beyond our own work). A
 * receipt usually comes within a block or two of sending, so ask at once, then 25 ms later, doubling the wait up to a
 * second: fast chains answer within a few polls and slow ones see one request a second, as before.
 */
import { TransactionReceiptNotFoundError, WaitForTransactionReceiptTimeoutError, type Hex, type PublicClient, type TransactionReceipt } from "viem";

const FIRST_POLL_MS = 25;
const LONGEST_POLL_MS = 1_000;
/** viem's own default: the chain job's deadline answers the caller long before, this only ends the polling. */
const RECEIPT_TIMEOUT_MS = 180_000;

/** The waits between polls: 25, 50, 100, ... ms, then a second each. */
export function* pollDelays(): Generator<number, never> {
  for (let delay = FIRST_POLL_MS; ; delay = Math.min(delay * 2, LONGEST_POLL_MS)) yield delay;
}

/** The receipt of `hash` once it is mined; a failing endpoint or the timeout throws (the outcome is then unknown). */
export async function waitForReceipt(client: PublicClient, hash: Hex, timeoutMs = RECEIPT_TIMEOUT_MS): Promise<TransactionReceipt> {
  const deadline = Date.now() + timeoutMs;
  for (const delay of pollDelays()) {
    try {
      return await client.getTransactionReceipt({ hash });
    } catch (error) {
      if (!(error instanceof TransactionReceiptNotFoundError)) throw error;
    }
    if (Date.now() + delay > deadline) throw new WaitForTransactionReceiptTimeoutError({ hash });
    await Bun.sleep(delay);
  }
  throw new Error("unreachable: the poll delays never end");
}
