/**
 * `kill -9` of the service while webhook deliveries are pending loses none; each is
 * delivered at least once after the restart, with the same `webhook-id`. Real processes: `npm start` on the
 * embedded PostgreSQL, a receiver verifying every request with the standardwebhooks library, SIGKILL to
 * the service's bun process while deliveries are in each state a crash can find them in.
 */
import { afterAll, afterEach, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import type { Sql } from "../../src/db/client";
import { cliData, leftBehind, processesUsing, SERVICE_PORT, serviceBun, startService, waitFor } from "../helpers/service";
import { createCompany, deliveryAttempts, LOCAL_WEBHOOKS, messageIds, seedWebhookTeam, serviceDb } from "../helpers/service-webhooks";
import { startReceiver, type Receiver } from "../webhooks/receiver";

const dataDir = mkdtempSync(`${tmpdir()}/billing-webhook-crash-`);
const base = `http://127.0.0.1:${SERVICE_PORT}/api/v1`;
const STALE_MS = 2_000;
const TIMEOUT_MS = 3_000;
// Recovery in seconds: a dead worker's jobs are unlocked STALE_MS after its last heartbeat, and a claim it
// held lapses TIMEOUT_MS + STALE_MS after it was taken (src/modules/webhooks/deliveries/attempt.ts).
const env = { ...LOCAL_WEBHOOKS, JOB_WORKER_STALE_MS: String(STALE_MS), WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS), JOB_CONCURRENCY: "5" };
const N = 20;
const REFUSED = 5;

let receiver: Receiver | undefined;
let sql: Sql | undefined;
afterEach(async () => {
  await sql?.end({ timeout: 1 });
  receiver?.stop();
  // A failed test must not leave its processes running either: only ours (they name our temp folder).
  for (const p of processesUsing(dataDir)) process.kill(p.pid, "SIGKILL");
  await leftBehind(dataDir, 5_000);
});
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const idOf = (r: { headers: Record<string, string> }) => r.headers["webhook-id"]!;

test("kill -9 with deliveries refused, in flight and queued: after the restart each message is delivered, with its webhook-id", async () => {
  receiver = startReceiver();
  const first = await startService(dataDir, env);
  const team = seedWebhookTeam(dataDir, env, `${receiver.url}/hook`);
  receiver.secrets = [team.secret];

  // The first attempts are refused (their retries wait in the queue, due 5 s later), the next ones hang
  // (in flight, their attempt claimed, their job locked), the rest are not reached before the kill.
  receiver.respond = Array(REFUSED).fill(503);
  receiver.hold = true;
  for (let i = 0; i < N; i++) await createCompany(base, team.legacyKey, `crash-${i}`);
  const held = () => receiver!.received.filter((r) => r.status === null).length;
  expect(await waitFor(() => held() >= 1 && receiver!.received.length >= REFUSED + 1, 10_000)).toBe(true);
  await Bun.sleep(300); // let the other workers reach the receiver too
  const bun = serviceBun(dataDir);
  process.kill(bun!.pid, "SIGKILL");
  const killedAt = Date.now();
  await first.exited;
  const beforeKill = receiver.received.slice();
  const inFlight = beforeKill.filter((r) => r.status === null);
  const refused = new Set(beforeKill.filter((r) => r.status === 503).map(idOf));
  // Each state was there at the kill: refused, in flight (well inside the request's timeout), never tried.
  expect(refused.size).toBe(REFUSED);
  expect(inFlight.length).toBeGreaterThanOrEqual(1);
  expect(killedAt - inFlight[0]!.at).toBeLessThan(TIMEOUT_MS);
  expect(new Set(beforeKill.map(idOf)).size).toBeLessThan(N);
  expect(beforeKill.every((r) => r.status !== 200)).toBe(true);

  // The receiver recovers; the service comes back once the dead process's heartbeats are stale.
  receiver.release(503);
  const afterKill = receiver.received.length;
  await Bun.sleep(Math.max(0, killedAt + STALE_MS + 500 - Date.now()));
  const second = await startService(dataDir, env);
  sql = serviceDb();
  const messages = await messageIds(sql, team.teamId);
  expect(messages).toHaveLength(N);

  const delivered = () =>
    new Set(
      receiver!.received
        .slice(afterKill)
        .filter((r) => r.status === 200)
        .map(idOf),
    );
  const allDelivered = await waitFor(() => delivered().size >= N, 45_000);
  expect({ allDelivered, missing: messages.filter((id) => !delivered().has(id)) }).toEqual({ allDelivered: true, missing: [] });
  // The same webhook-ids the outbox wrote, no other; each request signed, the same bytes each time for one id.
  expect([...delivered()].sort()).toEqual(messages);
  expect(receiver.received.every((r) => r.verifiedBy.length === 1)).toBe(true);
  for (const id of messages) expect(new Set(receiver.received.filter((r) => idOf(r) === id).map((r) => r.body)).size).toBe(1);
  for (const r of beforeKill) expect(delivered().has(idOf(r))).toBe(true);

  // The service's own record agrees: every delivery delivered (read over the CLI, as an operator would).
  const settled = async () => (await deliveryAttempts(sql!, team.teamId)).every((d) => d.status === "delivered");
  const deadline = Date.now() + 10_000;
  while (!(await settled()) && Date.now() < deadline) await Bun.sleep(200);
  const listed: { messageId: string; status: string }[] = cliData(
    dataDir,
    env,
    "webhook",
    "deliveries",
    "--team",
    team.teamId,
    "--id",
    team.endpointId,
  );
  expect(listed.map((d) => d.messageId).sort()).toEqual(messages);
  expect(listed.filter((d) => d.status !== "delivered")).toEqual([]);
  // Refused ones were delivered by their queued retry (attempt 2); the in-flight ones by attempt 1 again,
  // its lapsed claim taken over; the rest by attempt 1. No attempt recorded twice.
  const attempts = await deliveryAttempts(sql, team.teamId);
  expect(attempts.filter((d) => refused.has(d.message_id)).map((d) => d.numbers)).toEqual(Array(REFUSED).fill([1, 2]));
  expect(attempts.filter((d) => !refused.has(d.message_id)).map((d) => d.numbers)).toEqual(Array(N - REFUSED).fill([1]));

  await sql.end({ timeout: 1 });
  sql = undefined;
  process.kill(second.pid, "SIGTERM");
  expect(await leftBehind(dataDir, 30_000)).toEqual([]);
}, 120_000);
