/**
 * Crash recovery: a worker process killed with -9 in the middle of a job leaves it locked (graphile-worker
 * would wait 4 hours); its heartbeat stops, and the next runner to start (or the `jobs.recover_stale`
 * schedule) unlocks it, so it runs to completion elsewhere. A live worker's long job is never taken.
 */
import { afterAll, expect, test } from "bun:test";
import { cloneTestDatabase } from "../helpers/db";
import { queuedJobs } from "../helpers/jobs";
import { enqueueJob } from "../../src/jobs/enqueue";
import { startJobRunner } from "../../src/jobs/runner";
import { unlockStaleWorkers } from "../../src/jobs/repo";
import type { TaskName } from "../../src/jobs/names";
import { Logger } from "../../src/lib/logger";

const db = await cloneTestDatabase();
const children: { kill(signal?: number): void }[] = [];
afterAll(async () => {
  for (const child of children) child.kill(9);
  await db.drop();
});

const STALE_MS = 1_500;

function spawnRunner() {
  const child = Bun.spawn([process.execPath, "test/fixtures/job-runner.ts", db.url, String(STALE_MS)], { stdout: "pipe", stderr: "inherit" });
  children.push(child);
  let text = "";
  void (async () => {
    const decoder = new TextDecoder();
    const reader = child.stdout.getReader();
    for (let read = await reader.read(); !read.done; read = await reader.read()) text += decoder.decode(read.value, { stream: true });
  })();
  return { child, output: () => text };
}

const until = async (condition: () => boolean | Promise<boolean>, timeoutMs = 20_000) => {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error("timed out");
    await Bun.sleep(50);
  }
};

test("kill -9 of a worker mid-job: the job stays locked while it lives, then runs to completion on another runner", async () => {
  const id = await enqueueJob(db.sql, "test.block" as TaskName, { order: 7 } as never);
  const a = spawnRunner();
  await until(() => a.output().includes(`started ${id}`));

  // Alive and past the staleness: its heartbeat keeps the job.
  await Bun.sleep(STALE_MS + 500);
  expect(await unlockStaleWorkers(db.sql, STALE_MS)).toEqual([]);
  const [held] = await queuedJobs(db.sql);
  expect(held!.locked_by).not.toBeNull();

  a.child.kill(9);
  await a.child.exited;
  // Still locked by the dead process: only recovery frees it.
  expect((await queuedJobs(db.sql))[0]!.locked_by).toBe(held!.locked_by);
  await Bun.sleep(STALE_MS + 200);

  const ran: unknown[] = [];
  const b = await startJobRunner({
    connectionString: db.url,
    sql: db.sql,
    handlers: { "test.block": async (payload, job) => void ran.push({ payload, attempt: job.attempt }) },
    schedules: [],
    logger: new Logger("silent"),
    concurrency: 1,
    graceMs: 1_000,
    staleMs: STALE_MS,
    pollIntervalMs: 200,
  });
  try {
    await until(() => ran.length > 0);
    await until(async () => (await queuedJobs(db.sql)).length === 0);
    expect(ran).toEqual([{ payload: { order: 7 }, attempt: 2 }]);
  } finally {
    await b.stop();
  }
}, 60_000);
