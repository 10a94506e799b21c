/**
 * enqueueJob: a job follows its transaction. Committed, it runs (once); rolled back, it never existed;
 * on the pool, it commits at once. Drained with the helper that webhook and other job tests use.
 */
import { describe, expect, test } from "bun:test";
import { createTestApp } from "../helpers/app";
import { drainJobs, queuedJobs } from "../helpers/jobs";
import { enqueueJob } from "../../src/jobs/enqueue";
import type { TaskName } from "../../src/jobs/names";

const t = await createTestApp();
const sql = t.db.sql;
// A task of the tests' own, run by drainJobs next to the app's registry.
const RECORD = "test.record" as TaskName;
const seen: unknown[] = [];
const record = { [RECORD]: async (payload: unknown) => void seen.push(payload) };

describe("enqueueJob", () => {
  test("in a committed transaction: the job runs once, with its payload, after the commit", async () => {
    seen.length = 0;
    await sql.begin(async (tx) => {
      await tx`select 1`;
      await enqueueJob(tx, RECORD, { n: 1 } as never);
      // Not visible outside the transaction before it commits.
      expect((await queuedJobs(sql)).filter((j) => j.task === RECORD)).toEqual([]);
    });
    const drained = await drainJobs(t, record);
    expect(drained.completed.map((j) => j.task)).toEqual([RECORD]);
    expect(seen).toEqual([{ n: 1 }]);
    expect(await drainJobs(t, record)).toEqual({ completed: [], failed: [] });
    expect(await queuedJobs(sql)).toEqual([]);
  });

  test("in a rolled-back transaction: nothing is queued and nothing runs", async () => {
    seen.length = 0;
    await expect(
      sql.begin(async (tx) => {
        await enqueueJob(tx, RECORD, { n: 2 } as never);
        throw new Error("the state change failed");
      }),
    ).rejects.toThrow("the state change failed");
    expect(await queuedJobs(sql)).toEqual([]);
    expect((await drainJobs(t, record)).completed).toEqual([]);
    expect(seen).toEqual([]);
  });

  test("on the pool, with a job key: one pending job per key, the last payload wins; runAt in the future waits", async () => {
    seen.length = 0;
    await enqueueJob(sql, RECORD, { n: 3 } as never, { jobKey: "k" });
    await enqueueJob(sql, RECORD, { n: 4 } as never, { jobKey: "k" });
    const later = await enqueueJob(sql, RECORD, { n: 5 } as never, { runAt: new Date(Date.now() + 3_600_000), maxAttempts: 3 });
    expect((await drainJobs(t, record)).completed.map((j) => j.payload)).toEqual([{ n: 4 }]);
    expect(seen).toEqual([{ n: 4 }]);
    const left = await queuedJobs(sql);
    expect(left.map((j) => j.id)).toEqual([later]);
    await sql`delete from graphile_worker._private_jobs`;
  });

  test("with a queue name: the queue's jobs run one at a time, in order, even with several runners at once", async () => {
    let running = 0;
    let most = 0;
    const order: unknown[] = [];
    const slow = {
      [RECORD]: async (payload: unknown) => {
        most = Math.max(most, ++running);
        await Bun.sleep(20);
        order.push(payload);
        running--;
      },
    };
    for (let n = 1; n <= 4; n++) await enqueueJob(sql, RECORD, { n } as never, { queueName: "one-lane" });
    const drained = await drainJobs(t, slow, { concurrency: 4 });
    expect(drained.completed).toHaveLength(4);
    expect(order).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }, { n: 4 }]);
    expect(most).toBe(1);
    // Without one, the same jobs run side by side.
    most = 0;
    for (let n = 1; n <= 4; n++) await enqueueJob(sql, RECORD, { n } as never);
    await drainJobs(t, slow, { concurrency: 4 });
    expect(most).toBeGreaterThan(1);
    expect(await queuedJobs(sql)).toEqual([]);
  });

  test("a handler that throws leaves the job for a retry, with the error recorded", async () => {
    const id = await enqueueJob(sql, RECORD, { n: 6 } as never, { maxAttempts: 2 });
    const drained = await drainJobs(t, { [RECORD]: async () => Promise.reject(new Error("receiver down")) });
    expect(drained.failed).toEqual([{ id, task: RECORD, error: "receiver down" }]);
    const [job] = await queuedJobs(sql);
    expect(job!.attempts).toBe(1);
    expect(job!.locked_by).toBeNull();
    await sql`delete from graphile_worker._private_jobs`;
  });
});
