/**
 * Outbound requests refuse private, loopback, link-local and metadata addresses unless
 * WEBHOOK_ALLOW_PRIVATE_ADDRESSES is set: at endpoint creation for IP literals, and at each attempt for
 * every address a host name resolves to. Redirects are never followed.
 */
import { afterAll, expect, test } from "bun:test";
import { createTestApp } from "../helpers/app";
import { createTeamFixture } from "../helpers/fixtures";
import { drainJobs } from "../helpers/jobs";
import { postWebhook } from "../../src/modules/webhooks/deliveries/outbound";
import { startReceiver } from "./receiver";

const t = await createTestApp(); // the defaults: https only, no private addresses
const team = await createTeamFixture(t);
const admin = { token: team.dashboardAdmin };
const receiver = startReceiver();
afterAll(() => receiver.stop());
const port = new URL(receiver.url).port;

test("POST endpoints refuses private, loopback, link-local and metadata IP literals, http, and credentials in the URL", async () => {
  const refused = [
    "https://127.0.0.1/hook",
    "https://10.1.2.3/hook",
    "https://192.168.0.10/hook",
    "https://169.254.169.254/latest/meta-data",
    "https://100.100.100.200/",
    "https://[::1]/hook",
    "https://[::ffff:127.0.0.1]/hook",
    "https://[fd00:ec2::254]/",
    "https://0.0.0.0/",
    "http://example.com/hook",
    "ftp://example.com/hook",
    "https://user:pass@example.com/hook",
    "not a url",
    `https://example.com/${"a".repeat(2100)}`,
  ];
  for (const url of refused) {
    const res = await t.call("POST", "/dashboard/webhooks/endpoints", { ...admin, body: { url } });
    expect({ url, status: res.status, field: Object.keys(res.body.details ?? {}) }).toEqual({ url, status: 400, field: ["body.url"] });
  }
  expect((await t.call("GET", "/dashboard/webhooks/endpoints", admin)).body.count).toBe(0);
});

test("an attempt to a host name resolving to loopback (localhost) is refused and nothing is sent", async () => {
  const created = await t.call("POST", "/dashboard/webhooks/endpoints", { ...admin, body: { url: `https://localhost:${port}/hook` } });
  expect(created.status).toBe(201); // a name is checked when it is resolved, at each attempt
  const sent = await t.call("POST", `/dashboard/webhooks/endpoints/${created.body.data.id}/test`, admin);
  await drainJobs(t);
  const detail = (await t.call("GET", `/dashboard/webhooks/deliveries/${sent.body.data.deliveryId}`, admin)).body.data;
  expect(detail).toMatchObject({ status: "pending", attempts: 1, lastStatusCode: null });
  expect(detail.lastError).toContain("resolves to a private or reserved address (127.0.0.1");
  expect(receiver.received).toHaveLength(0);
});

test("postWebhook refuses every private address unless allowed, checking the address it connects to", async () => {
  const refuse = { allowPrivateAddresses: false, timeoutMs: 2000 };
  for (const url of [
    `http://127.0.0.1:${port}/x`,
    `http://localhost:${port}/x`,
    `http://[::1]:${port}/x`,
    "http://10.0.0.1/x",
    "http://169.254.169.254/x",
  ]) {
    const outcome = await postWebhook(url, "{}", {}, refuse);
    expect({ url, status: outcome.statusCode, refused: outcome.error?.startsWith("Refused") }).toEqual({ url, status: null, refused: true });
  }
  expect(receiver.received).toHaveLength(0);
  const allowed = await postWebhook(`http://localhost:${port}/x`, "{}", {}, { allowPrivateAddresses: true, timeoutMs: 2000 });
  expect(allowed.statusCode).toBe(200);
  expect(receiver.received.at(-1)!.headers.host).toBe(`localhost:${port}`); // sent to the checked address, Host kept
});

test("redirects are not followed: a 3xx fails the attempt", async () => {
  const target = startReceiver();
  const redirector = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => Response.redirect(`${target.url}/elsewhere`, 302) });
  try {
    const outcome = await postWebhook(`http://127.0.0.1:${redirector.port}/hook`, "{}", {}, { allowPrivateAddresses: true, timeoutMs: 2000 });
    expect(outcome.statusCode).toBe(302);
    expect(outcome.error).toContain("Redirect not followed");
    expect(target.received).toHaveLength(0);
  } finally {
    redirector.stop(true);
    target.stop();
  }
});
