/**
 * The dashboard's webhook endpoint routes: create (the secret shown once), list and get (never the secret),
 * update (filters checked against the one list; re-enabling), delete, reveal, roles, tenant isolation,
 * and no secret in logs, lists or the audit log.
 */
import { expect, test } from "bun:test";
import { createTestApp } from "../helpers/app";
import { createTeamFixture } from "../helpers/fixtures";
import { createDashboardSession } from "../../src/modules/teams/automation-session";
import { SUBSCRIBABLE_EVENT_TYPES } from "../../src/modules/webhooks/event-types";

const t = await createTestApp();
const base = "/dashboard/webhooks/endpoints";

async function team() {
  const fixture = await createTeamFixture(t);
  return { fixture, admin: { token: fixture.dashboardAdmin } };
}

test("POST creates an endpoint with a whsec_ secret shown once; GET and lists never show it", async () => {
  const { admin } = await team();
  const created = await t.call("POST", base, {
    ...admin,
    body: { url: "https://example.com/hooks", description: "Main", eventTypes: ["company.created", "company.created"] },
  });
  expect(created.status).toBe(201);
  expect(created.headers.get("cache-control")).toBe("no-store"); // no cache keeps the secret
  const { secret, ...endpoint } = created.body.data; // the endpoint's fields and its secret, as a created API key's
  expect(Object.keys(created.body)).toEqual(["data"]);
  expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/); // 32 random bytes
  expect(endpoint).toMatchObject({ url: "https://example.com/hooks", description: "Main", eventTypes: ["company.created"], enabled: true });
  const got = await t.call("GET", `${base}/${endpoint.id}`, admin);
  expect(got.body).toEqual({ data: endpoint });
  const list = await t.call("GET", base, admin);
  expect(list.body).toEqual({ data: [endpoint], count: 1, nextCursor: null });
  const secretPart = secret.slice("whsec_".length);
  for (const body of [got.body, list.body, (await t.call("GET", "/audit-log", admin)).body]) expect(JSON.stringify(body)).not.toContain(secretPart);
  // Stored sealed, not in clear.
  const [row] = await t.db.sql`select secret_sealed from webhook_endpoints where id = ${endpoint.id}`;
  expect(Buffer.from(row!.secret_sealed).toString("latin1")).not.toContain(secretPart);
  const revealed = await t.call("GET", `${base}/${endpoint.id}/secret`, admin);
  expect(revealed.body).toEqual({ data: { secret, previousSecret: null, previousSecretExpiresAt: null } });
  expect(revealed.headers.get("cache-control")).toBe("no-store");
  // Nothing logged carries a secret: not the responses, not the reveal.
  expect(t.logs.join("\n")).not.toContain(secretPart);
});

test("a replayed create (Idempotency-Key) returns the same secret, kept sealed in the key store", async () => {
  const { admin } = await team();
  const headers = { "idempotency-key": crypto.randomUUID() };
  const first = await t.call("POST", base, { ...admin, headers, body: { url: "https://example.com/once" } });
  const again = await t.call("POST", base, { ...admin, headers, body: { url: "https://example.com/once" } });
  expect(again.headers.get("idempotent-replayed")).toBe("true");
  expect(again.body).toEqual(first.body);
  const stored = await t.db.sql`select response_body from idempotency_keys where response_body is not null`;
  for (const r of stored) expect(Buffer.from(r.response_body).toString("latin1")).not.toContain(first.body.data.secret.slice(6));
});

test("concurrent rotations chain: each keeps the secret the one before it made", async () => {
  const { admin } = await team();
  const created = (await t.call("POST", base, { ...admin, body: { url: "https://example.com/race" } })).body.data;
  const id = created.id;
  // Hold the endpoint's row while two rotations start, so both are in flight at once; then let go.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let locked!: () => void;
  const isLocked = new Promise<void>((resolve) => (locked = resolve));
  const holder = t.db.sql.begin(async (tx) => {
    await tx`select id from webhook_endpoints where id = ${id} for update`;
    locked();
    await held;
  });
  await isLocked;
  const rotating = [t.call("POST", `${base}/${id}/rotate-secret`, admin), t.call("POST", `${base}/${id}/rotate-secret`, admin)];
  await Bun.sleep(200); // both have read (or are waiting to read) the endpoint
  release();
  await holder;
  const [a, b] = await Promise.all(rotating);
  expect([a!.status, b!.status]).toEqual([200, 200]);
  const revealed = (await t.call("GET", `${base}/${id}/secret`, admin)).body.data;
  // The later rotation kept the earlier one's secret as previous, not the secret both started from: the
  // earlier caller's secret still signs, so a receiver set up with it keeps verifying through the overlap.
  expect([a!.body.data.secret, b!.body.data.secret]).toContain(revealed.secret);
  expect([a!.body.data.secret, b!.body.data.secret]).toContain(revealed.previousSecret);
  expect(revealed.previousSecret).not.toBe(created.secret);
});

test("event types must come from the one list; an empty filter takes every type", async () => {
  const { admin } = await team();
  const bad = await t.call("POST", base, { ...admin, body: { url: "https://example.com/x", eventTypes: ["company.created", "nope.nothing"] } });
  expect(bad.status).toBe(400);
  expect(bad.body.details["body.eventTypes"]).toContain("nope.nothing");
  const test_ = await t.call("POST", base, { ...admin, body: { url: "https://example.com/x", eventTypes: ["webhook.test"] } });
  expect(test_.status).toBe(400);
  const types = (await t.call("GET", "/dashboard/webhooks/event-types", admin)).body.data;
  expect(types.map((e: { type: string }) => e.type)).toEqual([...SUBSCRIBABLE_EVENT_TYPES, "webhook.test"]);
  expect(types.filter((e: { emitted: boolean }) => e.emitted).map((e: { type: string }) => e.type)).toEqual([
    "checkout_session.paid",
    "payment_link.paid",
    "company.created",
    "invoice.issued",
    "invoice.paid",
    "invoice.overdue",
    "invoice.voided",
    "credit_note.created",
    "refund.created",
    "subscription.activated",
    "subscription.renewed",
    "subscription.past_due",
    "subscription.canceled",
    "subscription.plan_changed",
    "mandate.revoked",
    "mandate.expired",
    "payment.confirmed",
    "agent.topup.dispatched",
    "agent.topup.failed",
    "escrow.authorized",
    "escrow.captured",
    "escrow.disputed",
    "escrow.refunded",
    "webhook.test",
  ]);
  expect(types.length).toBe(24); // BILLING.md's 23 and the test event
});

test("PATCH changes url, description and filter; disabling and re-enabling; DELETE removes it", async () => {
  const { admin } = await team();
  const { data: endpoint } = (await t.call("POST", base, { ...admin, body: { url: "https://example.com/a", description: "A" } })).body;
  const patched = await t.call("PATCH", `${base}/${endpoint.id}`, {
    ...admin,
    body: { url: "https://example.com/b", description: null, eventTypes: ["invoice.paid"] },
  });
  expect(patched.status).toBe(200);
  expect(patched.body.data).toMatchObject({ url: "https://example.com/b", description: null, eventTypes: ["invoice.paid"], enabled: true });
  const off = await t.call("PATCH", `${base}/${endpoint.id}`, { ...admin, body: { enabled: false } });
  expect(off.body.data).toMatchObject({ enabled: false, disabledReason: "disabled by an operator", disabledAt: expect.any(String) });
  const on = await t.call("PATCH", `${base}/${endpoint.id}`, { ...admin, body: { enabled: true } });
  expect(on.body.data).toMatchObject({ enabled: true, disabledReason: null, disabledAt: null });
  expect((await t.call("PATCH", `${base}/${endpoint.id}`, { ...admin, body: { url: "http://example.com/c" } })).status).toBe(400);
  expect((await t.call("PATCH", `${base}/${endpoint.id}`, { ...admin, body: { eventTypes: ["x"] } })).status).toBe(400);
  expect((await t.call("GET", `${base}/${endpoint.id}`, admin)).body.data.url).toBe("https://example.com/b"); // no partial write
  expect((await t.call("DELETE", `${base}/${endpoint.id}`, admin)).status).toBe(200);
  expect((await t.call("GET", `${base}/${endpoint.id}`, admin)).status).toBe(404);
  expect((await t.call("DELETE", `${base}/${endpoint.id}`, admin)).status).toBe(404);
  const actions = (await t.call("GET", "/audit-log?resourceType=webhook_endpoint", admin)).body.data.map((e: { action: string }) => e.action);
  expect(actions).toEqual([
    "webhook_endpoint.delete",
    "webhook_endpoint.update",
    "webhook_endpoint.update",
    "webhook_endpoint.update",
    "webhook_endpoint.create",
  ]);
});

test("rotate-secret: overlap limits; 0 drops the previous secret at once", async () => {
  const { admin } = await team();
  const { data: endpoint } = (await t.call("POST", base, { ...admin, body: { url: "https://example.com/r" } })).body;
  expect((await t.call("POST", `${base}/${endpoint.id}/rotate-secret`, { ...admin, body: { overlapSeconds: 604801 } })).status).toBe(400);
  const dflt = await t.call("POST", `${base}/${endpoint.id}/rotate-secret`, admin);
  expect(dflt.status).toBe(200);
  expect(dflt.headers.get("cache-control")).toBe("no-store");
  expect(dflt.body.data.previousSecretExpiresAt).toBe(new Date(t.clock.now() + 86_400_000).toISOString());
  const now = await t.call("POST", `${base}/${endpoint.id}/rotate-secret`, { ...admin, body: { overlapSeconds: 0 } });
  expect(now.body.data.previousSecretExpiresAt).toBeNull();
  expect((await t.call("GET", `${base}/${endpoint.id}/secret`, admin)).body.data).toEqual({
    secret: now.body.data.secret,
    previousSecret: null,
    previousSecretExpiresAt: null,
  });
});

test("roles: webhooks:read lists but cannot create, change or reveal", async () => {
  const { fixture, admin } = await team();
  const { data: endpoint } = (await t.call("POST", base, { ...admin, body: { url: "https://example.com/ro" } })).body;
  const reader = await createDashboardSession(
    t.db.sql,
    { teamId: fixture.teamId, environment: "development", userEmail: "r@test.dev", roles: ["webhooks:read"] },
    t.clock.now(),
  );
  const ro = { token: reader.session };
  expect((await t.call("GET", base, ro)).status).toBe(200);
  expect((await t.call("GET", `${base}/${endpoint.id}/deliveries`, ro)).status).toBe(200);
  for (const [method, path] of [
    ["POST", base],
    ["GET", `${base}/${endpoint.id}/secret`],
    ["POST", `${base}/${endpoint.id}/rotate-secret`],
    ["DELETE", `${base}/${endpoint.id}`],
  ] as const) {
    const res = await t.call(method, path, { ...ro, body: method === "POST" && path === base ? { url: "https://example.com/z" } : undefined });
    expect({ method, path, status: res.status, code: res.body.code }).toEqual({ method, path, status: 403, code: "missing_permission" });
  }
});

test("tenant isolation: another team's or environment's endpoints are 404 and never listed", async () => {
  const a = await team();
  const b = await team();
  const { data: endpoint } = (await t.call("POST", base, { ...a.admin, body: { url: "https://example.com/a" } })).body;
  for (const [method, path] of [
    ["GET", `${base}/${endpoint.id}`],
    ["PATCH", `${base}/${endpoint.id}`],
    ["DELETE", `${base}/${endpoint.id}`],
    ["GET", `${base}/${endpoint.id}/secret`],
    ["POST", `${base}/${endpoint.id}/rotate-secret`],
    ["POST", `${base}/${endpoint.id}/test`],
    ["GET", `${base}/${endpoint.id}/deliveries`],
  ] as const) {
    const res = await t.call(method, path, { ...b.admin, body: method === "PATCH" ? { description: "x" } : undefined });
    expect({ method, path, status: res.status }).toEqual({ method, path, status: 404 });
  }
  expect((await t.call("GET", base, b.admin)).body.count).toBe(0);
  const production = await createDashboardSession(
    t.db.sql,
    { teamId: a.fixture.teamId, environment: "production", userEmail: "p@test.dev", roles: ["admin"] },
    t.clock.now(),
  );
  expect((await t.call("GET", `${base}/${endpoint.id}`, { token: production.session })).status).toBe(404);
  expect((await t.call("GET", base, { token: production.session })).body.count).toBe(0);
});
