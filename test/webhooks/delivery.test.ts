/**
 * Webhook deliveries end to end: events emitted in the state change's transaction, queued, sent by the
 * attempt task to a real local receiver that verifies each with the standardwebhooks library.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { createTestApp } from "../helpers/app";
import { createTeamFixture } from "../helpers/fixtures";
import { drainJobs, makeJobsDue, queuedJobs } from "../helpers/jobs";
import { emitEvent } from "../../src/modules/webhooks/emit";
import { runAttempt } from "../../src/modules/webhooks/deliveries/attempt";
import { claimAttempt } from "../../src/modules/webhooks/deliveries/repo";
import { MAX_ATTEMPTS } from "../../src/modules/webhooks/deliveries/schedule";
import { startReceiver, type Receiver } from "./receiver";

// JOB_WORKER_STALE_MS off its default, so the claim lapse is seen to follow it.
const t = await createTestApp({
  WEBHOOK_ALLOW_HTTP: "true",
  WEBHOOK_ALLOW_PRIVATE_ADDRESSES: "true",
  RATE_LIMIT_ENABLED: "false",
  JOB_WORKER_STALE_MS: "5000",
});
const receivers: Receiver[] = [];
afterAll(() => receivers.forEach((r) => r.stop()));

async function setup(eventTypes: string[] = []) {
  const team = await createTeamFixture(t);
  const receiver = startReceiver();
  receivers.push(receiver);
  const admin = { token: team.dashboardAdmin };
  const created = await t.call("POST", "/dashboard/webhooks/endpoints", { ...admin, body: { url: `${receiver.url}/hook`, eventTypes } });
  expect(created.status).toBe(201);
  receiver.secrets = [created.body.data.secret];
  return {
    team,
    receiver,
    admin,
    endpoint: created.body.data,
    secret: created.body.data.secret as string,
    tenant: { teamId: team.teamId, environment: "development" as const },
  };
}

const payloadOf = (r: { body: string }) => JSON.parse(r.body);
const identify = (team: { keys: { legacy: string } }, id: string) =>
  t.call("POST", "/events", { token: team.keys.legacy, body: { event_type: "identify", company: { id, name: `Co ${id}` } } });

describe("company.created", () => {
  test("a company inserted by an event is delivered once, signed, with the API's company record", async () => {
    const { team, receiver } = await setup();
    expect((await identify(team, "acme")).status).toBe(200);
    expect((await identify(team, "acme")).status).toBe(200); // found, not created: no second event
    await drainJobs(t);
    expect(receiver.received).toHaveLength(1);
    const [got] = receiver.received;
    expect(got!.verifiedBy).toEqual([0]);
    const payload = payloadOf(got!);
    expect(payload).toMatchObject({ type: "company.created", data: { externalId: "acme", name: "Co acme" } });
    expect(payload.timestamp).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(got!.headers["webhook-id"]).toMatch(/^msg_/);
    const companies = await t.call("GET", "/companies", { token: team.keys.secret });
    // The company as the API presents it (lastSeenAt moved with the second identify).
    expect(payload.data).toEqual({ ...companies.body.data[0], lastSeenAt: payload.data.lastSeenAt });
  });

  test("an endpoint filtering other types receives nothing", async () => {
    const { team, receiver } = await setup(["checkout_session.paid"]);
    await identify(team, "filtered");
    await drainJobs(t);
    expect(receiver.received).toHaveLength(0);
  });
});

describe("the outbox", () => {
  test("a rolled-back transaction sends nothing; a committed one sends", async () => {
    const { receiver, tenant } = await setup();
    await t.db.sql
      .begin(async (tx) => {
        await emitEvent({ tx, tenant }, "company.created", { id: "comp_rolled_back" });
        throw new Error("roll back");
      })
      .catch(() => {});
    await drainJobs(t);
    expect(receiver.received).toHaveLength(0);
    await t.db.sql.begin((tx) => emitEvent({ tx, tenant }, "company.created", { id: "comp_committed" }));
    await drainJobs(t);
    expect(receiver.received.map((r) => payloadOf(r).data.id)).toEqual(["comp_committed"]);
  });

  test("a tenant without endpoints writes nothing", async () => {
    const team = await createTeamFixture(t);
    const tenant = { teamId: team.teamId, environment: "development" as const };
    expect(await t.db.sql.begin((tx) => emitEvent({ tx, tenant }, "company.created", { id: "x" }))).toEqual({ messageId: null, deliveryIds: [] });
  });
});

describe("retries", () => {
  test("a 500 is retried on the schedule: same webhook-id and body, signed afresh with a new timestamp", async () => {
    const { receiver, tenant, admin, endpoint } = await setup();
    receiver.respond = [500];
    const { deliveryIds } = await t.db.sql.begin((tx) => emitEvent({ tx, tenant }, "company.created", { id: "comp_retry" }));
    await drainJobs(t);
    expect(receiver.received).toHaveLength(1);
    const pending = (await t.call("GET", `/dashboard/webhooks/deliveries/${deliveryIds[0]}`, admin)).body.data;
    expect(pending).toMatchObject({ status: "pending", attempts: 1, lastStatusCode: 500 });
    const due = new Date(pending.nextAttemptAt).getTime() - new Date(pending.attemptLog[0].finishedAt).getTime();
    expect(due).toBeGreaterThanOrEqual(4500); // 5 s +/- 10%
    expect(due).toBeLessThanOrEqual(5500);
    // Into the next wall-clock second after the first attempt's, so the new signature's timestamp (in seconds) differs.
    const firstSecond = Number(receiver.received[0]!.headers["webhook-timestamp"]);
    await Bun.sleep(Math.max(0, (firstSecond + 1) * 1000 + 20 - Date.now()));
    await makeJobsDue(t.db.sql);
    await drainJobs(t);
    expect(receiver.received).toHaveLength(2);
    const [first, second] = receiver.received;
    expect(second!.headers["webhook-id"]).toBe(first!.headers["webhook-id"]!);
    expect(second!.body).toBe(first!.body);
    expect(Number(second!.headers["webhook-timestamp"])).toBeGreaterThan(Number(first!.headers["webhook-timestamp"]));
    expect(second!.headers["webhook-signature"]).not.toBe(first!.headers["webhook-signature"]!);
    expect(second!.verifiedBy).toEqual([0]);
    const done = (await t.call("GET", `/dashboard/webhooks/deliveries/${deliveryIds[0]}`, admin)).body.data;
    expect(done).toMatchObject({ status: "delivered", attempts: 2, lastStatusCode: 200, nextAttemptAt: null });
    expect(done.attemptLog.map((a: { statusCode: number }) => a.statusCode)).toEqual([500, 200]);
    expect(done.attemptLog[0].responseExcerpt).toBe("status 500");
    const log = (await t.call("GET", `/dashboard/webhooks/endpoints/${endpoint.id}/deliveries`, admin)).body;
    expect(log).toMatchObject({ count: 1 });
    expect(log.data[0]).toMatchObject({ id: deliveryIds[0], status: "delivered", attempts: 2, lastStatusCode: 200 });
    expect(typeof log.data[0].lastLatencyMs).toBe("number");
  });

  test("a 410 disables the endpoint at once and tells the operator; its other pending deliveries are skipped", async () => {
    const { receiver, tenant, admin, endpoint } = await setup();
    receiver.respond = [410];
    const first = await t.db.sql.begin((tx) => emitEvent({ tx, tenant }, "company.created", { id: "comp_gone" }));
    await drainJobs(t);
    const ep = (await t.call("GET", `/dashboard/webhooks/endpoints/${endpoint.id}`, admin)).body.data;
    expect(ep).toMatchObject({ enabled: false, disabledReason: "The endpoint answered 410 Gone" });
    const d = (await t.call("GET", `/dashboard/webhooks/deliveries/${first.deliveryIds[0]}`, admin)).body.data;
    expect(d).toMatchObject({ status: "failed", attempts: 1, lastStatusCode: 410 });
    const notes = (await t.call("GET", "/dashboard/webhooks/notifications", admin)).body.data;
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatchObject({ kind: "webhook_endpoint.disabled", resourceId: endpoint.id });
    expect(t.logs.some((l) => l.includes("webhook endpoint disabled") && l.includes(endpoint.id))).toBe(true);
    // Nothing more goes out to a disabled endpoint, and re-enabling clears its disabled state.
    await t.db.sql.begin((tx) => emitEvent({ tx, tenant }, "company.created", { id: "comp_after" }));
    await drainJobs(t);
    expect(receiver.received).toHaveLength(1);
    const enabled = await t.call("PATCH", `/dashboard/webhooks/endpoints/${endpoint.id}`, { ...admin, body: { enabled: true } });
    expect(enabled.body.data).toMatchObject({ enabled: true, disabledReason: null, disabledAt: null });
  });

  test("a delivery failing every attempt fails, disables its endpoint and creates a notification", async () => {
    const { receiver, tenant, admin, endpoint } = await setup();
    receiver.respond = Array(MAX_ATTEMPTS).fill(503);
    const { deliveryIds } = await t.db.sql.begin((tx) => emitEvent({ tx, tenant }, "company.created", { id: "comp_down" }));
    for (let i = 0; i < MAX_ATTEMPTS; i++) {
      await makeJobsDue(t.db.sql);
      await drainJobs(t);
    }
    expect(receiver.received).toHaveLength(MAX_ATTEMPTS);
    const detail = (await t.call("GET", `/dashboard/webhooks/deliveries/${deliveryIds[0]}`, admin)).body.data;
    expect(detail).toMatchObject({ status: "failed", attempts: MAX_ATTEMPTS, nextAttemptAt: null });
    expect(detail.attemptLog.map((a: { attempt: number }) => a.attempt)).toEqual([...Array(MAX_ATTEMPTS).keys()].map((i) => i + 1));
    const ep = (await t.call("GET", `/dashboard/webhooks/endpoints/${endpoint.id}`, admin)).body.data;
    expect(ep.enabled).toBe(false);
    expect(ep.disabledReason).toContain("Every attempt");
    const notes = (await t.call("GET", "/dashboard/webhooks/notifications", admin)).body.data;
    expect(notes.map((n: { resourceId: string }) => n.resourceId)).toEqual([endpoint.id]);
    const audit = (await t.call("GET", `/audit-log?action=webhook_endpoint.disable`, admin)).body.data;
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actorKind: "system", resourceId: endpoint.id });
    expect(audit[0].details.url).toBe(`${new URL(receiver.url).origin}/…`); // the origin only: a path may hold a token
    await makeJobsDue(t.db.sql);
    await drainJobs(t);
    expect(receiver.received).toHaveLength(MAX_ATTEMPTS);
    expect((await queuedJobs(t.db.sql)).filter((j) => j.task === "webhook.attempt")).toEqual([]);
  });

  test("a failed delivery leaves its endpoint enabled when another delivery succeeded since its first attempt", async () => {
    const { receiver, tenant, admin, endpoint } = await setup();
    receiver.respond = [503];
    await t.db.sql.begin((tx) => emitEvent({ tx, tenant }, "company.created", { id: "comp_flaky" }));
    await drainJobs(t); // attempt 1 fails
    await t.db.sql.begin((tx) => emitEvent({ tx, tenant }, "company.created", { id: "comp_fine" }));
    await drainJobs(t); // another delivery succeeds
    receiver.respond = Array(MAX_ATTEMPTS).fill(503);
    for (let i = 0; i < MAX_ATTEMPTS; i++) {
      await makeJobsDue(t.db.sql);
      await drainJobs(t);
    }
    const ep = (await t.call("GET", `/dashboard/webhooks/endpoints/${endpoint.id}`, admin)).body.data;
    expect(ep.enabled).toBe(true);
  });
});

describe("once per attempt", () => {
  test("two workers running the same attempt send it once", async () => {
    const { receiver, tenant } = await setup();
    const { deliveryIds } = await t.db.sql.begin((tx) => emitEvent({ tx, tenant }, "company.created", { id: "comp_twice" }));
    const payload = { ...tenant, deliveryId: deliveryIds[0]!, attempt: 1 };
    const deps = { sql: t.db.sql, clock: t.clock, logger: t.logger, config: t.config };
    const results = await Promise.allSettled([runAttempt(deps, payload), runAttempt(deps, payload)]);
    // One sends; the other finds it in flight (and fails, for the queue to retry later) or already made.
    expect(results.filter((r) => r.status === "fulfilled").length).toBeGreaterThanOrEqual(1);
    await runAttempt(deps, payload); // a rerun after it finished does nothing
    await drainJobs(t); // the queued job for attempt 1 as well
    expect(receiver.received).toHaveLength(1);
  });

  test("a claim left by a run that died lapses after the timeout plus JOB_WORKER_STALE_MS, then the attempt is sent", async () => {
    const { receiver, tenant } = await setup();
    const { deliveryIds } = await t.db.sql.begin((tx) => emitEvent({ tx, tenant }, "company.created", { id: "comp_orphan" }));
    const deliveryId = deliveryIds[0]!;
    // A run claimed attempt 1, then its process was killed before the request ended: the claim stays.
    const lease = t.config.webhookTimeoutMs + t.config.jobWorkerStaleMs;
    expect(lease).toBe(15_000 + 5_000);
    expect(
      await claimAttempt(t.db.sql, tenant, { deliveryId, attempt: 1, claim: "dead-run" }, { now: new Date(t.clock.now()), leaseMs: lease }),
    ).toBe("claimed");
    const deps = { sql: t.db.sql, clock: t.clock, logger: t.logger, config: t.config };
    const payload = { ...tenant, deliveryId, attempt: 1 };
    t.clock.advance(lease - 1);
    await expect(runAttempt(deps, payload)).rejects.toThrow("in flight in another worker");
    expect(receiver.received).toHaveLength(0);
    t.clock.advance(2);
    await runAttempt(deps, payload);
    expect(receiver.received).toHaveLength(1);
    expect(receiver.received[0]!.verifiedBy).toEqual([0]);
  });
});

describe("rotation", () => {
  test("during the overlap both signatures are sent and each verifies with its own secret; after it only the new one", async () => {
    const { receiver, tenant, admin, endpoint, secret: oldSecret } = await setup();
    const rotated = await t.call("POST", `/dashboard/webhooks/endpoints/${endpoint.id}/rotate-secret`, { ...admin, body: { overlapSeconds: 3600 } });
    expect(rotated.status).toBe(200);
    const newSecret = rotated.body.data.secret as string;
    expect(newSecret).toMatch(/^whsec_/);
    expect(newSecret).not.toBe(oldSecret);
    expect(rotated.body.data.previousSecretExpiresAt).toBe(new Date(t.clock.now() + 3600_000).toISOString());
    receiver.secrets = [oldSecret, newSecret];
    await t.db.sql.begin((tx) => emitEvent({ tx, tenant }, "company.created", { id: "comp_overlap" }));
    await drainJobs(t);
    const during = receiver.received.at(-1)!;
    expect(during.headers["webhook-signature"]!.split(" ")).toHaveLength(2);
    expect(during.verifiedBy).toEqual([0, 1]);
    // Each signature alone verifies with its own secret only.
    const [sigNew, sigOld] = during.headers["webhook-signature"]!.split(" ");
    const { Webhook } = await import("standardwebhooks");
    const verifies = (secret: string, signature: string) => {
      try {
        new Webhook(secret).verify(during.body, { ...during.headers, "webhook-signature": signature });
        return true;
      } catch {
        return false;
      }
    };
    expect([verifies(newSecret, sigNew!), verifies(oldSecret, sigOld!), verifies(newSecret, sigOld!), verifies(oldSecret, sigNew!)]).toEqual([
      true,
      true,
      false,
      false,
    ]);
    const revealed = (await t.call("GET", `/dashboard/webhooks/endpoints/${endpoint.id}/secret`, admin)).body.data;
    expect(revealed).toEqual({
      secret: newSecret,
      previousSecret: oldSecret,
      previousSecretExpiresAt: rotated.body.data.previousSecretExpiresAt,
    });
    t.clock.advance(3600_000 + 1);
    await t.db.sql.begin((tx) => emitEvent({ tx, tenant }, "company.created", { id: "comp_after_overlap" }));
    await drainJobs(t);
    const after = receiver.received.at(-1)!;
    expect(after.headers["webhook-signature"]!.split(" ")).toHaveLength(1);
    expect(after.verifiedBy).toEqual([1]);
    expect((await t.call("GET", `/dashboard/webhooks/endpoints/${endpoint.id}/secret`, admin)).body.data).toEqual({
      secret: newSecret,
      previousSecret: null,
      previousSecretExpiresAt: null,
    });
  });
});

describe("replay and the test event", () => {
  test("replaying a delivery sends the same message again, now: same webhook-id and body", async () => {
    const { receiver, tenant, admin, endpoint } = await setup();
    const { deliveryIds, messageId } = await t.db.sql.begin((tx) => emitEvent({ tx, tenant }, "company.created", { id: "comp_replay" }));
    await drainJobs(t);
    const replayed = await t.call("POST", `/dashboard/webhooks/deliveries/${deliveryIds[0]}/replay`, admin);
    expect(replayed.status).toBe(202);
    expect(replayed.body.data).toMatchObject({ messageId, endpointId: endpoint.id, status: "pending", attempts: 0 });
    expect(replayed.body.data.id).not.toBe(deliveryIds[0]);
    await drainJobs(t);
    const again = await t.call("POST", `/dashboard/webhooks/endpoints/${endpoint.id}/replay`, { ...admin, body: { messageId } });
    expect(again.status).toBe(202);
    await drainJobs(t);
    expect(receiver.received).toHaveLength(3);
    expect(new Set(receiver.received.map((r) => r.headers["webhook-id"]))).toEqual(new Set([messageId!]));
    expect(new Set(receiver.received.map((r) => r.body)).size).toBe(1);
    expect(receiver.received.every((r) => r.verifiedBy.length === 1)).toBe(true);
    expect((await t.call("POST", `/dashboard/webhooks/endpoints/${endpoint.id}/replay`, { ...admin, body: { messageId: "msg_nope" } })).status).toBe(
      404,
    );
    expect((await t.call("POST", "/dashboard/webhooks/deliveries/dlv_nope/replay", admin)).status).toBe(404);
  });

  test("the test event goes to that endpoint only, whatever its filter", async () => {
    const { team, receiver, admin, endpoint } = await setup(["checkout_session.paid"]);
    const other = startReceiver();
    receivers.push(other);
    await t.call("POST", "/dashboard/webhooks/endpoints", { ...admin, body: { url: `${other.url}/other` } });
    const sent = await t.call("POST", `/dashboard/webhooks/endpoints/${endpoint.id}/test`, admin);
    expect(sent.status).toBe(202);
    expect(sent.body).toEqual({ data: { messageId: expect.stringMatching(/^msg_/), deliveryId: expect.stringMatching(/^dlv_/) } });
    await drainJobs(t);
    expect(other.received).toHaveLength(0);
    expect(receiver.received).toHaveLength(1);
    expect(payloadOf(receiver.received[0]!)).toMatchObject({ type: "webhook.test", data: { endpointId: endpoint.id } });
    expect(receiver.received[0]!.headers["webhook-id"]).toBe(sent.body.data.messageId);
    // A disabled endpoint is not tested: 409.
    await t.call("PATCH", `/dashboard/webhooks/endpoints/${endpoint.id}`, { ...admin, body: { enabled: false } });
    expect((await t.call("POST", `/dashboard/webhooks/endpoints/${endpoint.id}/test`, admin)).status).toBe(409);
    expect(team.teamId).toBeTruthy();
  });
});
