/**
 * Invoices by webhook: on issue, one delivery row per endpoint subscribed to invoice.issued, mirroring the
 * webhook delivery that carries the message to a real local receiver (SENT on 2xx, PENDING with the status
 * while retried, FAILED when the endpoint was disabled); on demand, the same message (same webhook-id) to
 * every subscribed endpoint, or, when no endpoint was subscribed at the issue, the message written then.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { createTestApp } from "../helpers/app";
import { createTeamFixture } from "../helpers/fixtures";
import { drainJobs, makeJobsDue } from "../helpers/jobs";
import { issuedInvoice, line } from "../helpers/invoices";
import { startReceiver, type Receiver } from "../webhooks/receiver";
import { findInvoice } from "../../src/modules/invoices/repo";
import { invoiceDetail } from "../../src/modules/invoices/present";
import type { Tenant } from "../../src/lib/tenant";

const t = await createTestApp({ WEBHOOK_ALLOW_HTTP: "true", WEBHOOK_ALLOW_PRIVATE_ADDRESSES: "true", RATE_LIMIT_ENABLED: "false" });
const sql = t.db.sql;
const receivers: Receiver[] = [];
afterAll(() => receivers.forEach((r) => r.stop()));
const now = new Date("2026-03-01T10:00:00.000Z");

async function setup() {
  const team = await createTeamFixture(t);
  const tenant: Tenant = { teamId: team.teamId, environment: "development" };
  const admin = { token: team.dashboardAdmin };
  const endpoint = async (eventTypes: string[]) => {
    const receiver = startReceiver();
    receivers.push(receiver);
    const created = await t.call("POST", "/dashboard/webhooks/endpoints", { ...admin, body: { url: `${receiver.url}/hook`, eventTypes } });
    expect(created.status).toBe(201);
    return { id: created.body.data.id as string, receiver };
  };
  const issue = () => issuedInvoice(sql, t.config.chains, tenant, now, [line(5_000_000n)]);
  const deliveries = async (id: string) => (await invoiceDetail(sql, tenant, (await findInvoice(sql, tenant, id))!)).deliveries;
  const send = (id: string, body?: unknown) => t.call("POST", `/dashboard/invoices/${id}/send`, { ...admin, body });
  return { tenant, admin, endpoint, issue, deliveries, send };
}

const payloadOf = (r: { body: string }) => JSON.parse(r.body);

describe("on issue", () => {
  test("one row per endpoint subscribed to invoice.issued, SENT when the receiver answers 2xx (no email row: nothing can email here)", async () => {
    const { endpoint, issue, deliveries } = await setup();
    const subscribed = await endpoint(["invoice.issued"]);
    const everything = await endpoint([]);
    const other = await endpoint(["company.created"]);
    const invoice = await issue();
    const rows = await deliveries(invoice.id);
    expect(rows.map((r) => r.destination).sort()).toEqual([subscribed.id, everything.id].sort());
    for (const row of rows) {
      expect(row).toMatchObject({ channel: "webhook", trigger: "issue", status: "PENDING", attempts: 0, sentAt: null });
      expect(row.webhookDeliveryId).toStartWith("dlv_");
    }
    await drainJobs(t);
    expect(subscribed.receiver.received.map((r) => payloadOf(r).type)).toEqual(["invoice.issued"]);
    expect(payloadOf(subscribed.receiver.received[0]!).data.invoice).toMatchObject({ id: invoice.id, number: invoice.number, total: "5.000000" });
    expect(other.receiver.received).toHaveLength(0);
    const sent = await deliveries(invoice.id);
    expect(sent.map((r) => [r.status, r.attempts, r.lastError])).toEqual([
      ["SENT", 1, null],
      ["SENT", 1, null],
    ]);
    const [delivered] = await sql`select delivered_at from webhook_deliveries where id = ${sent[0]!.webhookDeliveryId}`;
    expect(sent[0]!.sentAt).toBe(delivered!.delivered_at.toISOString());
  });

  test("a failing receiver: PENDING with its HTTP status while the webhook retries, then SENT", async () => {
    const { endpoint, issue, deliveries } = await setup();
    const hook = await endpoint(["invoice.issued"]);
    hook.receiver.respond = [500];
    const invoice = await issue();
    await drainJobs(t);
    expect((await deliveries(invoice.id))[0]).toMatchObject({ status: "PENDING", attempts: 1, lastError: "HTTP 500" });
    await makeJobsDue(sql);
    await drainJobs(t);
    expect((await deliveries(invoice.id))[0]).toMatchObject({ status: "SENT", attempts: 2, lastError: null });
  });

  test("an endpoint disabled before the attempt: FAILED; deleting the endpoint keeps the row's last state", async () => {
    const { admin, endpoint, issue, deliveries } = await setup();
    const hook = await endpoint(["invoice.issued"]);
    const invoice = await issue();
    expect((await t.call("PATCH", `/dashboard/webhooks/endpoints/${hook.id}`, { ...admin, body: { enabled: false } })).status).toBe(200);
    await drainJobs(t);
    expect(hook.receiver.received).toHaveLength(0);
    expect((await deliveries(invoice.id))[0]).toMatchObject({ status: "FAILED", lastError: "Endpoint disabled" });
    expect((await t.call("DELETE", `/dashboard/webhooks/endpoints/${hook.id}`, admin)).status).toBe(200);
    expect((await deliveries(invoice.id))[0]).toMatchObject({ status: "FAILED", destination: hook.id, webhookDeliveryId: null });
  });
});

describe("on demand", () => {
  test("the issue's message again (same webhook-id) to every subscribed endpoint, a new row each", async () => {
    const { endpoint, issue, deliveries, send } = await setup();
    const first = await endpoint(["invoice.issued"]);
    const invoice = await issue();
    await drainJobs(t);
    const added = await endpoint(["invoice.issued"]); // subscribed after the issue
    const sent = await send(invoice.id, { channel: "webhook" });
    expect(sent.status).toBe(202);
    expect(sent.body.data.map((r: { destination: string }) => r.destination).sort()).toEqual([first.id, added.id].sort());
    expect(sent.body.data.every((r: { trigger: string; status: string }) => r.trigger === "manual" && r.status === "PENDING")).toBe(true);
    await drainJobs(t);
    const issuedId = first.receiver.received[0]!.headers["webhook-id"];
    expect(first.receiver.received.map((r) => r.headers["webhook-id"])).toEqual([issuedId, issuedId]);
    expect(added.receiver.received.map((r) => r.headers["webhook-id"])).toEqual([issuedId]);
    expect((await deliveries(invoice.id)).map((r) => [r.trigger, r.status])).toEqual([
      ["issue", "SENT"],
      ["manual", "SENT"],
      ["manual", "SENT"],
    ]);
  });

  test("no endpoint at the issue: the invoice.issued message is written at the first send, dated at the issue, then resent as is", async () => {
    const { endpoint, issue, deliveries, send } = await setup();
    const invoice = await issue();
    expect(await deliveries(invoice.id)).toEqual([]);
    const hook = await endpoint(["invoice.issued"]);
    expect((await send(invoice.id, { channel: "webhook" })).status).toBe(202);
    expect((await send(invoice.id, { channel: "webhook" })).status).toBe(202);
    await drainJobs(t);
    const [a, b] = hook.receiver.received;
    expect(payloadOf(a!)).toMatchObject({ type: "invoice.issued", timestamp: now.toISOString(), data: { invoice: { id: invoice.id } } });
    expect(b!.headers["webhook-id"]).toBe(a!.headers["webhook-id"]);
    expect((await deliveries(invoice.id)).map((r) => r.status)).toEqual(["SENT", "SENT"]);
  });

  test("email on a service without SMTP_URL: 409 delivery_channel_unavailable, nothing written", async () => {
    const { issue, deliveries, send } = await setup();
    const invoice = await issue();
    for (const body of [undefined, { channel: "email" }, { to: "someone@example.com" }]) {
      const refused = await send(invoice.id, body);
      expect(refused.status).toBe(409);
      expect(refused.body).toEqual({ error: "Email is not configured on this service (SMTP_URL)", code: "delivery_channel_unavailable" });
    }
    expect(await deliveries(invoice.id)).toEqual([]);
  });

  test("no endpoint subscribed to invoice.issued: 409 delivery_channel_unavailable, nothing written", async () => {
    const { endpoint, issue, deliveries, send } = await setup();
    await endpoint(["company.created"]);
    const invoice = await issue();
    const refused = await send(invoice.id, { channel: "webhook" });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe("delivery_channel_unavailable");
    expect(await deliveries(invoice.id)).toEqual([]);
  });
});
