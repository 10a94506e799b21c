/**
 * Waiting for the operator's receipt (src/chains/evm/receipt.ts): fast polls first, doubling to a second, so a fast
 * chain's block is seen within a poll or two; on a client that counts its polls, and on anvil mining by hand.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { TransactionReceiptNotFoundError, WaitForTransactionReceiptTimeoutError, type PublicClient, type TransactionReceipt } from "viem";
import { foundry } from "viem/chains";
import { pollDelays, waitForReceipt } from "../../src/chains/evm/receipt";
import { account, startAnvil, type Anvil } from "../helpers/chains/anvil";

const HASH = `0x${"ab".repeat(32)}` as const;

/** A client whose receipt appears at its `minedAtPoll`-th request; it records when each request came. */
function pollingClient(minedAtPoll: number, failure?: Error) {
  const at: number[] = [];
  const client = {
    async getTransactionReceipt() {
      at.push(performance.now());
      if (failure) throw failure;
      if (at.length < minedAtPoll) throw new TransactionReceiptNotFoundError({ hash: HASH });
      return { transactionHash: HASH, status: "success" } as unknown as TransactionReceipt;
    },
  } as unknown as PublicClient;
  return { client, at };
}

test("the waits between polls start at 25 ms and double up to a second", () => {
  const delays = pollDelays();
  expect(Array.from({ length: 9 }, () => delays.next().value)).toEqual([25, 50, 100, 200, 400, 800, 1000, 1000, 1000]);
});

test("asks at once, then after each wait in turn, until the receipt is there", async () => {
  const { client, at } = pollingClient(5);
  expect((await waitForReceipt(client, HASH)).transactionHash).toBe(HASH);
  expect(at.length).toBe(5);
  const gaps = at.slice(1).map((t, i) => t - at[i]!);
  // Timers fire no earlier than asked (a millisecond of rounding aside), later only under load.
  for (const [i, wanted] of [25, 50, 100, 200].entries()) expect(gaps[i]).toBeGreaterThanOrEqual(wanted - 1);
  expect(at.at(-1)! - at[0]!).toBeLessThan(1_000);
});

test("an endpoint failing is thrown at once; no receipt by the deadline is viem's timeout error", async () => {
  const down = pollingClient(1, new Error("connection refused"));
  await expect(waitForReceipt(down.client, HASH)).rejects.toThrow("connection refused");
  expect(down.at.length).toBe(1);
  const never = pollingClient(Number.POSITIVE_INFINITY);
  await expect(waitForReceipt(never.client, HASH, 200)).rejects.toBeInstanceOf(WaitForTransactionReceiptTimeoutError);
});

let anvil: Anvil;
beforeAll(async () => void (anvil = await startAnvil()), 30_000);
afterAll(() => anvil?.stop());

test("on a node, a transaction mined after it was sent is seen well within a second of its block", async () => {
  await anvil.client.setAutomine(false);
  const hash = await anvil.client.sendTransaction({ account: account(0), to: account(1).address, value: 1n, chain: foundry });
  const waiting = waitForReceipt(anvil.client as unknown as PublicClient, hash).then(() => performance.now());
  await Bun.sleep(120); // past the first polls, as a block on a fast chain would be
  await anvil.client.mine({ blocks: 1 });
  const minedAt = performance.now();
  // Polls come at 0, 25, 75, 175, 375 ms: the one after the block, where a fixed 1 s interval would wait ~900 ms.
  expect((await waiting) - minedAt).toBeLessThan(500);
});
