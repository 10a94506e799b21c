/** The chain worker pool: deadlines, dead workers and shutdown always end in a verdict, never a hang. */
import { afterEach, describe, expect, test } from "bun:test";
import { ChainPool } from "../../src/chains/pool";
import type { PaymentExpectation } from "../../src/chains/types";

const WORKER = new URL("../fixtures/misbehaving-worker.ts", import.meta.url);
const job = (txHash: string): PaymentExpectation => ({
  network: { id: "anvil", family: "evm", testnet: true, chainId: 31337, rpcUrl: "http://127.0.0.1:1", confirmations: 1, tokens: [] },
  token: { symbol: "USDC", decimals: 6, contract: `0x${"1".repeat(40)}` },
  txHash,
  recipient: `0x${"2".repeat(40)}`,
  amount: 1n,
});

let pool: ChainPool | null = null;
afterEach(async () => {
  await pool?.close();
  pool = null;
});

describe("ChainPool", () => {
  test("answers jobs through the worker, bigints intact", async () => {
    pool = new ChainPool({ size: 2, jobTimeoutMs: 2_000, workerUrl: WORKER });
    const verdicts = await Promise.all([pool.verifyPayment(job("a")), pool.verifyPayment(job("b?ms=20"))]);
    expect(verdicts).toEqual([
      { ok: true, transfers: [], blockNumber: 1n, blockHash: null },
      { ok: true, transfers: [], blockNumber: 1n, blockHash: null },
    ]);
  });

  test("a job past its deadline is a timeout, and the stuck worker is replaced", async () => {
    pool = new ChainPool({ size: 1, jobTimeoutMs: 100, workerUrl: WORKER });
    expect(await pool.verifyPayment(job("hang"))).toMatchObject({ ok: false, reason: "timeout" });
    expect(await pool.verifyPayment(job("fine"))).toMatchObject({ ok: true });
  });

  test("a worker that throws fails its in-flight jobs with worker_crashed, and a new one takes the next job", async () => {
    const lost: string[] = [];
    pool = new ChainPool({ size: 1, jobTimeoutMs: 2_000, workerUrl: WORKER, onWorkerLost: (reason) => lost.push(reason) });
    const slow = pool.verifyPayment(job("slow?ms=500"));
    const crash = pool.verifyPayment(job("throw"));
    expect(await crash).toMatchObject({ ok: false, reason: "worker_crashed" });
    expect(await slow).toMatchObject({ ok: false, reason: "worker_crashed" });
    expect(lost.length).toBeGreaterThanOrEqual(1);
    expect(await pool.verifyPayment(job("after"))).toMatchObject({ ok: true });
  });

  test("a worker that exits is replaced the same way", async () => {
    pool = new ChainPool({ size: 1, jobTimeoutMs: 2_000, workerUrl: WORKER });
    expect(await pool.verifyPayment(job("exit"))).toMatchObject({ ok: false, reason: "worker_crashed" });
    expect(await pool.verifyPayment(job("after"))).toMatchObject({ ok: true });
  });

  test("closing the pool ends pending jobs with a verdict and refuses new ones", async () => {
    pool = new ChainPool({ size: 1, jobTimeoutMs: 5_000, workerUrl: WORKER });
    const pending = pool.verifyPayment(job("hang"));
    await pool.close();
    expect(await pending).toMatchObject({ ok: false, reason: "worker_crashed" });
    expect(await pool.verifyPayment(job("late"))).toMatchObject({ ok: false, reason: "worker_crashed" });
  });
});
