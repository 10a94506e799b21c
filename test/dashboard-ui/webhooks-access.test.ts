/**
 * Who may do what on the webhooks pages, and what they print: a read-only member (webhooks:read) sees the
 * endpoints and deliveries but no write control and no secret; forged posts change nothing and reveal nothing;
 * hostile URLs, descriptions and receiver answers print as text, never as a link or an element.
 */
import { afterAll, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { PASSWORD, browser as sessionOf, newOperator, newTeamWithOwner } from "../helpers/dashboard";
import { BROWSER_TEST_MS, screenshot, seriousViolations, signInThroughPage, startDashboard } from "../helpers/dashboard-browser";
import { drainJobs } from "../helpers/jobs";

const bed = await startDashboard({ WEBHOOK_ALLOW_HTTP: "true", WEBHOOK_ALLOW_PRIVATE_ADDRESSES: "true" });
const { t } = bed;
// Receivers on 127.0.0.1 over http, as test/webhooks/delivery.test.ts allows them, on this app's config.
const { teamId, owner } = await newTeamWithOwner(t);
const reader = await newOperator(t, teamId, ["webhooks:read"]);
const ownerApi = await sessionOf(t, owner.email);

const HOSTILE_TEXT = `"><script>window.__x=1</script><img src=x onerror=window.__x=1>`;
// A receiver whose answer is hostile: the delivery page prints its excerpt as the API keeps it.
const hostileReceiver = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response(HOSTILE_TEXT, { status: 200 }) });
afterAll(() => hostileReceiver.stop(true));

const created = await ownerApi.write("POST", "/dashboard/webhooks/endpoints", {
  url: `http://127.0.0.1:${hostileReceiver.port}/hook?q="><script>window.__x=1</script>`,
  description: HOSTILE_TEXT,
});
const endpoint = created.body.data as { id: string; secret: string; url: string };
await ownerApi.write("POST", `/dashboard/webhooks/endpoints/${endpoint.id}/test`);
await drainJobs(t);
const delivery = (await ownerApi.read(`/dashboard/webhooks/endpoints/${endpoint.id}/deliveries`)).body.data[0];
// A URL the API refuses (javascript:) in the table anyway, as an older or a broken row could hold it: still text.
const scripted = (await ownerApi.write("POST", "/dashboard/webhooks/endpoints", { url: "https://example.com/hook", description: "javascript row" }))
  .body.data;
await t.db.sql`update webhook_endpoints set url = 'javascript:alert(1)' where id = ${scripted.id}`;

const pages = [
  "/dashboard/webhooks",
  `/dashboard/webhooks/${endpoint.id}`,
  `/dashboard/webhooks/${scripted.id}`,
  `/dashboard/webhooks/deliveries/${delivery.id}`,
];

/** A form post made by script from the page (with the page's cookie), as a forged request would be. */
const post = (page: Page, path: string, fields: Record<string, string>) =>
  page.evaluate(
    async ({ path, fields }) => {
      const res = await fetch(path, { method: "POST", body: new URLSearchParams(fields), redirect: "manual" });
      return { status: res.status, text: await res.text() };
    },
    { path, fields },
  );

test(
  "a read-only member sees endpoints and deliveries with no write control and no reveal; the secret pages refuse it",
  async () => {
    const page = await bed.newPage();
    await signInThroughPage(page, reader.email, PASSWORD);
    for (const path of pages) {
      await page.goto(path);
      expect(await page.locator("main form").count()).toBe(0);
      expect(await page.locator("main button").count()).toBe(0);
      expect(await page.getByRole("link", { name: /Reveal|Rotate|Delete/ }).count()).toBe(0);
    }
    await page.goto(`/dashboard/webhooks/${endpoint.id}`);
    expect(await page.locator("main").textContent()).toContain("not change them or see their secrets");
    expect(await page.locator("section[aria-labelledby=list-title] tbody tr").count()).toBe(1);
    await screenshot(page, "webhooks-read-only");
    for (const action of ["secret", "rotate", "delete"]) {
      const res = await page.goto(`/dashboard/webhooks/${endpoint.id}/${action}`);
      expect(res!.status()).toBe(403);
    }
    // Its own token does not open the secret either: the page asks the route table, the API refuses the read.
    const csrf = (await page.locator('input[name="csrf"]').first().getAttribute("value"))!;
    const reveal = await post(page, `/dashboard/webhooks/${endpoint.id}/secret`, { csrf });
    expect(reveal.status).toBe(403);
    expect(reveal.text).not.toContain("whsec_");
    const test = await post(page, `/dashboard/webhooks/${endpoint.id}/test`, { csrf });
    expect(test.status).toBe(403);
    expect(test.text).toContain("webhooks:write");
    await page.context().close();
  },
  BROWSER_TEST_MS,
);

test(
  "forged posts (no CSRF token, a wrong one) change nothing and reveal nothing",
  async () => {
    const before = (await ownerApi.read("/dashboard/webhooks/endpoints")).body.data;
    const secretBefore = (await ownerApi.read(`/dashboard/webhooks/endpoints/${endpoint.id}/secret`)).body.data.secret;
    const deliveriesBefore = (await ownerApi.read(`/dashboard/webhooks/endpoints/${endpoint.id}/deliveries`)).body.count;
    const page = await bed.newPage();
    await signInThroughPage(page, owner.email, PASSWORD);
    const csrf = (await page.locator('input[name="csrf"]').first().getAttribute("value"))!;
    const id = endpoint.id;
    const variants: Record<string, string>[] = [{}, { csrf: `${csrf.slice(0, -2)}xx` }];
    for (const fields of variants) {
      const forged = [
        await post(page, "/dashboard/webhooks", { ...fields, url: "https://forged.example/hook" }),
        await post(page, `/dashboard/webhooks/${id}`, { ...fields, url: "https://forged.example/hook", enabled: "on" }),
        await post(page, `/dashboard/webhooks/${id}/rotate`, { ...fields, overlapSeconds: "0" }),
        await post(page, `/dashboard/webhooks/${id}/delete`, fields),
        await post(page, `/dashboard/webhooks/${id}/test`, fields),
        await post(page, `/dashboard/webhooks/deliveries/${delivery.id}/replay`, fields),
        await post(page, `/dashboard/webhooks/${id}/secret`, fields),
      ];
      for (const answer of forged) {
        expect(answer.status).toBe(403);
        expect(answer.text).not.toContain("whsec_");
      }
    }
    expect((await ownerApi.read("/dashboard/webhooks/endpoints")).body.data).toEqual(before);
    expect((await ownerApi.read(`/dashboard/webhooks/endpoints/${endpoint.id}/secret`)).body.data.secret).toBe(secretBefore);
    expect((await ownerApi.read(`/dashboard/webhooks/endpoints/${endpoint.id}/deliveries`)).body.count).toBe(deliveriesBefore);
    await page.context().close();
  },
  BROWSER_TEST_MS,
);

test(
  "hostile URLs, descriptions and a receiver's answer print as text: no element, no script, no javascript: link",
  async () => {
    const page = await bed.newPage();
    await signInThroughPage(page, owner.email, PASSWORD);
    for (const path of pages) {
      await page.goto(path);
      expect(await page.evaluate(() => (window as { __x?: number }).__x)).toBeUndefined();
      expect(await page.locator("main script, main img").count()).toBe(0);
      expect(await page.locator('a[href^="javascript"], a[href*="127.0.0.1"], a[href*="example.com"]').count()).toBe(0);
    }
    await page.goto("/dashboard/webhooks");
    const text = (await page.locator("main").textContent())!;
    expect(text).toContain(HOSTILE_TEXT);
    expect(text).toContain(endpoint.url);
    expect(text).toContain("javascript:alert(1)");
    await page.goto(`/dashboard/webhooks/deliveries/${delivery.id}`);
    expect(await page.locator("pre.excerpt").textContent()).toBe(HOSTILE_TEXT);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, "webhooks-hostile");
    expect(bed.blocked).toEqual([]);
    await page.context().close();
  },
  BROWSER_TEST_MS,
);
