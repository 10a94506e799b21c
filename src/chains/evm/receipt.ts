/**
 * Waiting for the receipt of the operator's own transaction. viem's waitForTransactionReceipt asks once, then polls
 * at one fixed interval: a multi-second default, or a second as this client had it, which is most of an operation's
 * time on a chain that makes a block every 250 ms (and all of an activation's latency beyond our own work). A
 * receipt usually comes within a block or two of sending, so ask at once, then 25 ms later, doubling the wait up to a
 * second: fast chains answer within a few polls and slow ones see one request a second, as before.
 */
import { TransactionReceiptNotFoundError, WaitForTransactionReceiptTimeoutError, type Hex, type PublicClient, type TransactionReceipt } from "viem";
import type { SubscriptionRefusal } from "../subscription-types";
import { operatorCannotPayGas } from "./subscription-errors";

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

/**
 * The receipt of the operator transaction `send` puts on the network. A node refusing it because the operator cannot
 * pay the gas is `not_configured` (ours to fix; nothing was sent); any other failure is the endpoint's, thrown for
 * the adapter's catch-all (the outcome is then unknown).
 */
export async function landReceipt(client: PublicClient, send: () => Promise<Hex>): Promise<TransactionReceipt | SubscriptionRefusal> {
  let hash: Hex;
  try {
    hash = await send();
  } catch (error) {
    return throwUnlessUnfunded(error);
  }
  return waitForReceipt(client, hash);
}

/** An operator without gas money is `not_configured`; any other failure is the endpoint's, for the adapter's catch-all. */
export function throwUnlessUnfunded(error: unknown): SubscriptionRefusal {
  const unfunded = operatorCannotPayGas(error);
  if (unfunded) return unfunded;
  throw error;
}
