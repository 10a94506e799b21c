/**
 * Two service instances on one database; each scheduled job runs once, each webhook
 * is delivered once per attempt. Real processes: `npm start` A on the embedded PostgreSQL, `npm start` B on
 * A's database (DATABASE_URL), both running job workers and schedules; events are emitted through both.
 * test/jobs/runners.test.ts proves once-per-tick across three runners with a fake clock; this is one real
 * tick (the schedules are per minute), so the test waits for the next minute boundary: up to about 70 s.
 */
import { afterAll, afterEach, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import type { Sql } from "../../src/db/client";
import { embeddedUrl } from "../../src/db/embedded";
import { cliData, leftBehind, processesUsing, SERVICE_PG_PORT, SERVICE_PORT, startService, waitFor } from "../helpers/service";
import { createCompany, deliveryAttempts, LOCAL_WEBHOOKS, messageIds, seedWebhookTeam, serviceDb } from "../helpers/service-webhooks";
import { startReceiver, type Receiver } from "../webhooks/receiver";

const dataDir = mkdtempSync(`${tmpdir()}/billing-two-instances-`);
const PORT_B = SERVICE_PORT + 1;
// Instances behind one database share the signing secrets (docs/operations/configuration.md): the webhook secrets
// are sealed under a key derived from TOKEN_SIGNING_SECRET, so B could not sign A's endpoints otherwise.
// Debug logs carry graphile-worker's line for each job completed.
const shared = {
  ...LOCAL_WEBHOOKS,
  TOKEN_SIGNING_SECRET: "two-instances-token-secret-0123456789abcdef",
  LINK_SIGNING_SECRET: "two-instances-link-secret-0123456789abcdef",
  LOG_LEVEL: "debug",
};
const M = 30;

let receiver: Receiver | undefined;
let sql: Sql | undefined;
afterEach(async () => {
  await sql?.end({ timeout: 1 });
  receiver?.stop();
  // B's DATA_DIR is inside dataDir: the scan finds both instances and the database.
  for (const p of processesUsing(dataDir)) process.kill(p.pid, "SIGKILL");
  await leftBehind(dataDir, 5_000);
});
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** graphile-worker's "Completed task" lines for `task` in a log (at our debug level). */
const completions = (log: string, task: string) =>
  log.split("\n").filter((line) => line.includes('"msg":"jobs: Completed task') && line.includes(`(${task},`)).length;

test("two instances on one database: each message delivered once (attempt 1 only), one run of a schedule's tick", async () => {
  receiver = startReceiver();
  receiver.delayMs = 100; // requests overlap, so both instances' workers take jobs
  const a = await startService(dataDir, shared);
  const b = await startService(dataDir, {
    ...shared,
    DATABASE_URL: embeddedUrl(SERVICE_PG_PORT),
    PORT: String(PORT_B),
    DATA_DIR: `${dataDir}/b`,
  });
  expect(b.output()).not.toContain("embedded PostgreSQL started");
  const team = seedWebhookTeam(dataDir, shared, `${receiver.url}/hook`);
  receiver.secrets = [team.secret];
  sql = serviceDb();

  // The window for the tick: it opens at least 5 s after a minute boundary (a job of the tick before has
  // finished by then) and holds the next boundary only.
  const intoMinute = () => Date.now() % 60_000;
  if (intoMinute() < 5_000) await Bun.sleep(5_000 - intoMinute());
  const from = { a: a.output().length, b: b.output().length };
  const boundary = Math.ceil(Date.now() / 60_000) * 60_000;

  // Events through both instances' APIs while the tick approaches.
  for (let i = 0; i < M; i++) await createCompany(`http://127.0.0.1:${i % 2 ? PORT_B : SERVICE_PORT}/api/v1`, team.legacyKey, `twice-${i}`);
  const messages = await messageIds(sql, team.teamId);
  expect(messages).toHaveLength(M);
  expect(await waitFor(() => new Set(receiver!.received.map((r) => r.headers["webhook-id"])).size >= M, 30_000)).toBe(true);
  const settled = async () => (await deliveryAttempts(sql!, team.teamId)).every((d) => d.status === "delivered");
  for (const deadline = Date.now() + 10_000; !(await settled()) && Date.now() < deadline; ) await Bun.sleep(200);
  await Bun.sleep(1_000); // a second send would arrive within the receiver's 100 ms: give it ten times that
  // Exactly once each, verified; one attempt row per delivery, attempt 1.
  const ids = receiver.received.map((r) => r.headers["webhook-id"]!).sort();
  expect(ids).toEqual(messages);
  expect(receiver.received.every((r) => r.verifiedBy.length === 1 && r.status === 200)).toBe(true);
  expect((await deliveryAttempts(sql, team.teamId)).map((d) => [d.status, d.numbers])).toEqual(Array(M).fill(["delivered", [1]]));
  const listed: { attempts: number }[] = cliData(dataDir, shared, "webhook", "deliveries", "--team", team.teamId, "--id", team.endpointId);
  expect(listed.map((d) => d.attempts)).toEqual(Array(M).fill(1));
  // Both instances sent some (so "once" was contested), M completions in all.
  const sent = { a: completions(a.output().slice(from.a), "webhook.attempt"), b: completions(b.output().slice(from.b), "webhook.attempt") };
  expect(sent.a + sent.b).toBe(M);
  expect(sent.a).toBeGreaterThan(0);
  expect(sent.b).toBeGreaterThan(0);

  // The tick: jobs.recover_stale is scheduled every minute; it runs once, on one of the two.
  const ticks = () => completions(a.output().slice(from.a), "jobs.recover_stale") + completions(b.output().slice(from.b), "jobs.recover_stale");
  expect(await waitFor(() => ticks() >= 1, boundary + 15_000 - Date.now())).toBe(true);
  // A second run of the same tick would start at the same boundary: give it a few seconds to show.
  await Bun.sleep(3_000);
  expect(ticks()).toBe(1);
  const [crontab] = await sql<{ last_execution: Date }[]>`
      select last_execution from graphile_worker._private_known_crontabs where identifier = 'jobs.recover_stale'`;
  expect(crontab!.last_execution.getTime()).toBe(boundary);

  await sql.end({ timeout: 1 });
  sql = undefined;
  process.kill(b.pid, "SIGTERM");
  await b.exited;
  process.kill(a.pid, "SIGTERM");
  expect(await leftBehind(dataDir, 30_000)).toEqual([]);
}, 150_000);
