/**
 * The webhooks pages in Chromium: an endpoint added through the page to a real local receiver (the one
 * test/webhooks uses, verifying every signature), a test event sent from the page and delivered by the job
 * queue run as test/webhooks runs it, its delivery in the log with its response code, replayed; the secret
 * revealed on a deliberate post and rotated after a confirmation; notices of an endpoint the service disabled.
 */
import { afterAll, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { PASSWORD, browser as sessionOf, newTeamWithOwner } from "../helpers/dashboard";
import { BROWSER_TEST_MS, screenshot, seriousViolations, signInThroughPage, startDashboard } from "../helpers/dashboard-browser";
import { drainJobs } from "../helpers/jobs";
import { startReceiver } from "../webhooks/receiver";

// The receiver is this test's own server on 127.0.0.1 over http, allowed as test/webhooks/delivery.test.ts allows it.
const bed = await startDashboard({ WEBHOOK_ALLOW_HTTP: "true", WEBHOOK_ALLOW_PRIVATE_ADDRESSES: "true" });
const { t } = bed;
const { owner } = await newTeamWithOwner(t);
const ownerApi = await sessionOf(t, owner.email);
const receiver = startReceiver();
afterAll(() => receiver.stop());

const endpointOf = async (id: string) => (await ownerApi.read(`/dashboard/webhooks/endpoints/${id}`)).body.data;
const secretOf = async (id: string) => (await ownerApi.read(`/dashboard/webhooks/endpoints/${id}/secret`)).body.data;
const idFromUrl = (page: Page) => /\/dashboard\/webhooks\/(wh_[\w]+)/.exec(page.url())![1]!;
const logRows = (page: Page) => page.locator("section[aria-labelledby=list-title] tbody tr");

// One browser page and endpoint through the first three tests (one flow, cut in steps to keep each short).
let page: Page;
let id: string;

test(
  "an endpoint added through the page (a URL the API refuses answered beside its field, input kept); the list shows it",
  async () => {
    page = await bed.newPage();
    await signInThroughPage(page, owner.email, PASSWORD);
    await page.goto("/dashboard/webhooks");
    expect(await page.locator("main").textContent()).toContain("No webhook endpoints yet.");

    // Refused by the API (credentials in the URL): its message beside the field, everything typed kept.
    const refusedUrl = `http://user:secret@127.0.0.1:1/hook`;
    await page.getByLabel("URL", { exact: true }).fill(refusedUrl);
    await page.getByLabel("Description (optional)").fill("Local receiver");
    await page.locator('input[value="company.created"]').check();
    await page.getByRole("button", { name: "Add endpoint" }).click();
    await page.waitForLoadState();
    expect(await page.locator("#url-error").textContent()).toBe("Must not carry a user name or password");
    expect(await page.getByLabel("URL", { exact: true }).getAttribute("aria-invalid")).toBe("true");
    expect(await page.getByLabel("URL", { exact: true }).inputValue()).toBe(refusedUrl);
    expect(await page.getByLabel("Description (optional)").inputValue()).toBe("Local receiver");
    expect(await page.locator('input[value="company.created"]').isChecked()).toBe(true);
    expect((await ownerApi.read("/dashboard/webhooks/endpoints")).body.data).toEqual([]);

    await page.getByLabel("URL", { exact: true }).fill(`${receiver.url}/hook`);
    await page.getByRole("button", { name: "Add endpoint" }).click();
    await page.waitForURL(/\/dashboard\/webhooks\/wh_\w+\?done=created$/);
    id = idFromUrl(page);
    expect(await endpointOf(id)).toMatchObject({
      url: `${receiver.url}/hook`,
      description: "Local receiver",
      eventTypes: ["company.created"],
      enabled: true,
    });
    expect(await page.locator("p.notice").textContent()).toContain("Endpoint created");

    await page.goto("/dashboard/webhooks");
    expect(await page.locator("tbody tr").first().locator("td").first().textContent()).toBe(`${receiver.url}/hook`);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, "webhooks");
  },
  BROWSER_TEST_MS,
);

test(
  "the secret, revealed on a deliberate post, is the one the receiver verifies the test event sent from the page with; the delivery is logged with its response code",
  async () => {
    // The secret: not on the endpoint's page; revealed by a deliberate post, the same the API (and so the signer) holds.
    await page.goto(`/dashboard/webhooks/${id}`);
    expect(await page.locator("main").textContent()).not.toContain("whsec_");
    await page.getByRole("link", { name: "Reveal signing secret" }).click();
    expect(await page.locator("main").textContent()).not.toContain("whsec_");
    await page.getByRole("button", { name: "Reveal secret" }).click();
    await page.waitForLoadState();
    const secret = (await page.locator("#webhook-secret").textContent())!;
    expect(secret).toMatch(/^whsec_/);
    expect(secret).toBe((await secretOf(id)).secret);
    expect(await page.getByRole("button", { name: "Copy" }).count()).toBe(1);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, "webhooks-secret");
    receiver.secrets = [secret];

    // The test event, from the page; delivered by the job queue; logged with the receiver's answer.
    await page.goto(`/dashboard/webhooks/${id}`);
    await page.getByRole("button", { name: "Send test event" }).click();
    await page.waitForURL(/\?done=test$/);
    expect(await page.locator("p.notice").textContent()).toContain("Test event queued");
    expect(await logRows(page).count()).toBe(1);
    await drainJobs(t);
    expect(receiver.received).toHaveLength(1);
    expect(receiver.received[0]!.verifiedBy).toEqual([0]);
    expect(JSON.parse(receiver.received[0]!.body).type).toBe("webhook.test");
    await page.reload();
    const first = (await logRows(page).first().locator("td").allTextContents()).slice(0, 4);
    expect(first).toEqual(["webhook.test", "delivered", "200", "1"]);
  },
  BROWSER_TEST_MS,
);

test(
  "the delivery's page shows its attempt and the receiver's answer; replayed from there, the log shows a second delivery of the same message",
  async () => {
    // The delivery: its attempt with the response as the API keeps it; replayed as a new delivery.
    await page.getByRole("link", { name: /^Open delivery/ }).click();
    await page.waitForURL(/\/dashboard\/webhooks\/deliveries\/dlv_/);
    const deliveryId = /deliveries\/(dlv_\w+)/.exec(page.url())![1]!;
    const delivery = (await ownerApi.read(`/dashboard/webhooks/deliveries/${deliveryId}`)).body.data;
    expect(delivery.attemptLog[0]).toMatchObject({ statusCode: 200, responseExcerpt: "ok" });
    const attempt = await page.locator("section[aria-labelledby=attempts-title] tbody tr td").allTextContents();
    expect([attempt[0], attempt[2], attempt[5]]).toEqual(["1", "200", "ok"]);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, "webhooks-delivery");
    await page.getByRole("button", { name: "Replay delivery" }).click();
    await page.waitForURL(new RegExp(`/dashboard/webhooks/${id}\\?done=replayed$`));
    await drainJobs(t);
    expect(receiver.received).toHaveLength(2);
    const [sent, replayed] = receiver.received;
    expect(replayed!.headers["webhook-id"]).toBe(sent!.headers["webhook-id"]!);
    expect(replayed!.body).toBe(sent!.body);
    expect(replayed!.verifiedBy).toEqual([0]);
    await page.reload();
    expect(await logRows(page).count()).toBe(2);
    for (const row of await logRows(page).all())
      expect((await row.locator("td").allTextContents()).slice(0, 3)).toEqual(["webhook.test", "delivered", "200"]);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, "webhooks-endpoint");
    // The log's status filter is the API's: nothing failed here.
    await page.getByRole("link", { name: "failed", exact: true }).click();
    await page.waitForURL(/\?status=failed$/);
    expect(await page.locator("main").textContent()).toContain("No failed deliveries.");
    await page.context().close();
  },
  BROWSER_TEST_MS,
);

test(
  "rotation after its confirmation page: a bad overlap answered beside its field, then a new secret shown once that signs the next delivery",
  async () => {
    const created = await ownerApi.write("POST", "/dashboard/webhooks/endpoints", { url: `${receiver.url}/rotated` });
    const { id, secret: before } = created.body.data;
    const page = await bed.newPage();
    await signInThroughPage(page, owner.email, PASSWORD);
    await page.goto(`/dashboard/webhooks/${id}`);
    await page.getByRole("link", { name: "Rotate signing secret" }).click();
    expect((await secretOf(id)).secret).toBe(before); // the confirmation page changes nothing
    await page.getByLabel("Overlap in seconds").fill("9999999");
    await page.getByRole("button", { name: "Rotate secret" }).click();
    await page.waitForLoadState();
    expect(await page.locator("#overlapSeconds-error").textContent()).toBeTruthy();
    expect(await page.getByLabel("Overlap in seconds").inputValue()).toBe("9999999");
    expect((await secretOf(id)).secret).toBe(before);

    await page.getByLabel("Overlap in seconds").fill("0");
    await page.getByRole("button", { name: "Rotate secret" }).click();
    await page.waitForLoadState();
    const after = (await page.locator("#webhook-secret").textContent())!;
    expect(after).toMatch(/^whsec_/);
    expect(after).not.toBe(before);
    expect(await secretOf(id)).toEqual({ secret: after, previousSecret: null, previousSecretExpiresAt: null });

    receiver.secrets = [before, after];
    const from = receiver.received.length;
    expect((await ownerApi.write("POST", `/dashboard/webhooks/endpoints/${id}/test`)).status).toBe(202);
    await drainJobs(t);
    expect(receiver.received.slice(from).map((r) => r.verifiedBy)).toEqual([[1]]);
    await page.context().close();
  },
  BROWSER_TEST_MS,
);

test(
  "an endpoint the service disabled (410) is a notice on the list; re-enabled through the edit form; deleted after its confirmation page",
  async () => {
    const created = await ownerApi.write("POST", "/dashboard/webhooks/endpoints", { url: `${receiver.url}/gone`, description: "Soon gone" });
    const { id } = created.body.data;
    receiver.respond = [410];
    expect((await ownerApi.write("POST", `/dashboard/webhooks/endpoints/${id}/test`)).status).toBe(202);
    await drainJobs(t);
    expect((await endpointOf(id)).enabled).toBe(false);

    const page = await bed.newPage();
    await signInThroughPage(page, owner.email, PASSWORD);
    await page.goto("/dashboard/webhooks");
    const notices = (await page.locator("section.notices").textContent())!;
    expect(notices).toContain((await ownerApi.read("/dashboard/webhooks/notifications")).body.data[0].message);
    await page.locator("section.notices").getByRole("link").first().click();
    await page.waitForURL(new RegExp(`/dashboard/webhooks/${id}$`));
    expect(await page.locator("dl.facts").textContent()).toContain("Disabled");

    // A test event to a disabled endpoint: the API's 409 above the page.
    await page.getByRole("button", { name: "Send test event" }).click();
    await page.waitForLoadState();
    expect(await page.locator(".form-error").textContent()).toContain("is disabled");

    await page.getByLabel("Enabled").check();
    await page.getByLabel("Description (optional)").fill("Back again");
    await page.locator('input[value="invoice.paid"]').check();
    await page.getByRole("button", { name: "Save" }).click();
    await page.waitForURL(/\?done=updated$/);
    expect(await endpointOf(id)).toMatchObject({ enabled: true, disabledReason: null, description: "Back again", eventTypes: ["invoice.paid"] });

    // Replay of a message by its id: an unknown one refused with the API's message, the id kept; the real one queued.
    await page.getByLabel("Message id").fill("msg_unknown");
    await page.getByRole("button", { name: "Replay message" }).click();
    await page.waitForLoadState();
    expect(await page.locator("section[aria-labelledby=replay-title] .form-error").textContent()).toBe("No webhook message msg_unknown");
    expect(await page.getByLabel("Message id").inputValue()).toBe("msg_unknown");
    const messageId = (await ownerApi.read(`/dashboard/webhooks/endpoints/${id}/deliveries`)).body.data[0].messageId;
    await page.getByLabel("Message id").fill(messageId);
    await page.getByRole("button", { name: "Replay message" }).click();
    await page.waitForURL(/\?done=replayed$/);
    expect((await ownerApi.read(`/dashboard/webhooks/endpoints/${id}/deliveries`)).body.count).toBe(2);

    await page.getByRole("link", { name: "Delete endpoint" }).click();
    expect((await ownerApi.read(`/dashboard/webhooks/endpoints/${id}`)).status).toBe(200);
    await page.getByRole("button", { name: "Delete endpoint" }).click();
    await page.waitForURL(/\/dashboard\/webhooks\?done=deleted$/);
    expect((await ownerApi.read(`/dashboard/webhooks/endpoints/${id}`)).status).toBe(404);
    expect(await page.locator("p.notice").textContent()).toContain("Endpoint deleted");
    await page.context().close();
  },
  BROWSER_TEST_MS,
);
