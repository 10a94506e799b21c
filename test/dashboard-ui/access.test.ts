/**
 * Who may write, in Chromium and by forged posts: a read-only member sees no write control, and a post without
 * the session's CSRF token, with a wrong one, from another site, or by a read-only role is refused with nothing
 * changed.
 */
import { expect, test } from "bun:test";
import { PASSWORD, browser as sessionOf, newOperator, newTeamWithOwner } from "../helpers/dashboard";
import { BROWSER_TEST_MS, screenshot, seriousViolations, signInThroughPage, startDashboard } from "../helpers/dashboard-browser";

const bed = await startDashboard();
const { t } = bed;
const { teamId, owner } = await newTeamWithOwner(t);
const reader = await newOperator(t, teamId, ["keys:read", "catalog:read"]);
const ownerApi = await sessionOf(t, owner.email);
await ownerApi.write("POST", "/dashboard/api-keys", { name: "Existing key", type: "secret" });

const keyNames = async () => ((await ownerApi.read("/dashboard/api-keys")).body.data as { name: string }[]).map((k) => k.name).sort();
const featureKeys = async () => ((await ownerApi.read("/dashboard/features")).body.data as { featureKey: string }[]).map((f) => f.featureKey);

/** A form post made by script from the page (with the page's cookie), as a forged request would be. */
const post = (page: import("playwright-core").Page, path: string, fields: Record<string, string>, headers: Record<string, string> = {}) =>
  page.evaluate(
    async ({ path, fields, headers }) => {
      const res = await fetch(path, { method: "POST", body: new URLSearchParams(fields), headers, redirect: "manual" });
      return { status: res.status, text: await res.text() };
    },
    { path, fields, headers },
  );

test(
  "a read-only member sees the lists and no write control (no create form, no revoke link)",
  async () => {
    const page = await bed.newPage();
    await signInThroughPage(page, reader.email, PASSWORD);
    expect(await page.locator("tbody").textContent()).toContain("Existing key");
    expect(await page.locator("main form").count()).toBe(0);
    expect(await page.getByRole("link", { name: /Revoke/ }).count()).toBe(0);
    expect(await page.locator("main").textContent()).toContain("not create or revoke");
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, "read-only");
    await page.goto("/dashboard/features");
    expect(await page.locator("main form").count()).toBe(0);
    await page.context().close();
  },
  BROWSER_TEST_MS,
);

test(
  "forged posts are refused and change nothing: no CSRF token, a wrong one, a read-only role, another site's origin",
  async () => {
    const before = await keyNames();
    const page = await bed.newPage();
    await signInThroughPage(page, owner.email, PASSWORD);
    const csrf = (await page.locator('input[name="csrf"]').first().getAttribute("value"))!;

    const none = await post(page, "/dashboard/api-keys", { name: "forged", type: "secret" });
    expect(none.status).toBe(403);
    expect(none.text).toContain("CSRF");
    const wrong = await post(page, "/dashboard/api-keys", { name: "forged", type: "secret", csrf: `${csrf.slice(0, -2)}xx` });
    expect(wrong.status).toBe(403);
    const revoke = await post(page, `/dashboard/api-keys/${(await ownerApi.read("/dashboard/api-keys")).body.data[0].id}/revoke`, {});
    expect(revoke.status).toBe(403);

    // Another site's form: the browser names its origin; refused before the API is asked (this guards sign-in too).
    const crossSite = await fetch(`${bed.base}/dashboard/sign-in`, {
      method: "POST",
      headers: { origin: "https://evil.example", "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ email: owner.email, password: PASSWORD }),
      redirect: "manual",
    });
    expect(crossSite.status).toBe(403);
    expect(crossSite.headers.get("set-cookie")).toBeNull();

    const readerPage = await bed.newPage();
    await signInThroughPage(readerPage, reader.email, PASSWORD);
    const readerCsrf = (await readerPage.locator('input[name="csrf"]').first().getAttribute("value"))!;
    const byRole = await post(readerPage, "/dashboard/api-keys", { name: "forged", type: "secret", csrf: readerCsrf });
    expect(byRole.status).toBe(403);
    expect(byRole.text).toContain("keys:write");
    const feature = await post(readerPage, "/dashboard/features", { name: "Forged", featureKey: "forged", featureType: "boolean", csrf: readerCsrf });
    expect(feature.status).toBe(403);

    expect(await keyNames()).toEqual(before);
    expect((await ownerApi.read("/dashboard/api-keys")).body.data.every((k: { revokedAt: string | null }) => k.revokedAt === null)).toBe(true);
    expect(await featureKeys()).toEqual([]);
    await page.context().close();
    await readerPage.context().close();
  },
  BROWSER_TEST_MS,
);

test("a page post whose body cannot be read is the sender's mistake: 400, and no error in the log", async () => {
  const before = t.logs.length;
  const res = await fetch(`${bed.base}/dashboard/sign-in`, {
    method: "POST",
    headers: { origin: bed.base, "content-type": "application/json" },
    body: "{",
    redirect: "manual",
  });
  expect(res.status).toBe(400);
  expect(await res.text()).toContain("This form could not be read.");
  expect(t.logs.slice(before).filter((line) => line.includes("dashboard page failed"))).toEqual([]);
});

test("signing in again through the page ends the session the browser held", async () => {
  const signIn = async (cookie?: string) => {
    const res = await fetch(`${bed.base}/dashboard/sign-in`, {
      method: "POST",
      headers: { origin: bed.base, "content-type": "application/x-www-form-urlencoded", ...(cookie ? { cookie } : {}) },
      body: new URLSearchParams({ email: owner.email, password: PASSWORD }),
      redirect: "manual",
    });
    expect(res.status).toBe(303);
    return (res.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
  };
  const keysWith = async (cookie: string) => (await fetch(`${bed.base}/api/v1/dashboard/api-keys`, { headers: { cookie } })).status;
  const first = await signIn();
  expect(await keysWith(first)).toBe(200);
  const second = await signIn(first);
  expect(second).not.toBe(first);
  expect(await keysWith(second)).toBe(200);
  expect(await keysWith(first)).toBe(401);
});

test(
  "a member lands on the overview whatever their roles, and the navigation offers only the sections their roles may read",
  async () => {
    const billing = await newOperator(t, teamId, ["billing:read"]);
    const page = await bed.newPage();
    await page.goto("/dashboard/sign-in");
    await page.getByLabel("Email").fill(billing.email);
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await page.waitForURL("**/dashboard/overview");
    expect(await page.locator("h1").textContent()).toContain("Overview");
    const sections = await page.locator("nav[aria-label=Sections] a").allTextContents();
    expect(sections).toEqual(["Overview", "Subscriptions", "Invoices", "Agents", "Escrow"]);
    // Every section offered opens (no 403 page behind a link).
    for (const href of await page.locator("nav[aria-label=Sections] a").evaluateAll((links) => links.map((a) => a.getAttribute("href")!))) {
      const res = await page.goto(href);
      expect({ href, status: res!.status() }).toEqual({ href, status: 200 });
    }
    await page.context().close();
  },
  BROWSER_TEST_MS,
);
