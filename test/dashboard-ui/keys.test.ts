/** Signing in and the API keys page, in Chromium: the raw key shown once, the list with last use, revoke after a confirmation. */
import { expect, test } from "bun:test";
import { OPERATOR } from "../../src/modules/teams/roles";
import { createSignInLink } from "../../src/modules/teams/sign-in";
import { PASSWORD, newTeamWithOwner } from "../helpers/dashboard";
import { BROWSER_TEST_MS, screenshot, seriousViolations, signInThroughPage, startDashboard } from "../helpers/dashboard-browser";

// The policy docs/dashboard.md states, written out: a weakened constant in src/ui/response.ts fails here.
const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; frame-ancestors 'none'; form-action 'self'; base-uri 'none'";

const bed = await startDashboard();
const { t } = bed;
const { teamId, owner } = await newTeamWithOwner(t);

test(
  "sign-in page: a wrong password is refused with the API's message and the email kept; the right one opens the keys page",
  async () => {
    const page = await bed.newPage();
    const answer = (await page.goto("/dashboard"))!;
    expect(page.url()).toEndWith("/dashboard/sign-in");
    expect(answer.headers()["content-security-policy"]).toBe(CSP);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, "sign-in");
    await page.getByLabel("Email").fill(owner.email);
    await page.getByLabel("Password").fill("not the password at all");
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await expect(page.getByRole("alert").textContent()).resolves.toBe("Email or password is incorrect");
    expect(await page.getByLabel("Email").inputValue()).toBe(owner.email);
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await page.waitForURL("**/dashboard/overview");
    expect(await page.locator("h1").textContent()).toContain("Overview");
    await page.context().close();
  },
  BROWSER_TEST_MS,
);

test(
  "create a key: the raw value is shown once with a copy button, and is gone on reload; revoke asks first, then the key stops working",
  async () => {
    const page = await bed.newPage();
    await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
    await signInThroughPage(page, owner.email, PASSWORD);
    await page.getByLabel("Name").fill("Server key");
    await page.getByRole("button", { name: "Create key" }).click();
    expect(await page.locator("#created-title").textContent()).toBe("New key: Server key");
    const raw = (await page.locator("#raw-key").textContent())!;
    expect(raw).toMatch(/^sk_test_/);
    await page.getByRole("button", { name: "Copy" }).click();
    await page.getByText("Copied").waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(raw);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, "api-keys-created");
    // The key works against the API.
    expect((await t.call("GET", "/companies", { token: raw })).status).toBe(200);

    await t.credentials.flushLastUsed(); // the service writes last use in batches

    await page.reload();
    expect(await page.locator("#raw-key").count()).toBe(0);
    expect(await page.content()).not.toContain(raw);
    const row = page.locator("tr", { hasText: "Server key" });
    expect(await row.textContent()).toContain("Active");
    const lastUse = new Date(t.clock.now()).toISOString().slice(0, 16).replace("T", " ");
    expect(await row.locator("td").nth(3).textContent()).toBe(`${lastUse} UTC`);

    await row.getByRole("link", { name: /Revoke/ }).click();
    await page.waitForURL("**/revoke");
    expect(await page.locator("main").textContent()).toContain("cannot be undone");
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, "api-keys-revoke");
    // The confirmation page changed nothing yet.
    expect((await t.call("GET", "/companies", { token: raw })).status).toBe(200);
    await page.getByRole("button", { name: "Revoke key" }).click();
    await page.waitForURL("**/dashboard/api-keys");
    expect(await page.locator("tr", { hasText: "Server key" }).textContent()).toContain("Revoked");
    expect((await t.call("GET", "/companies", { token: raw })).status).toBe(401);
    await screenshot(page, "api-keys");
    await page.context().close();
  },
  BROWSER_TEST_MS,
);

test(
  "the create form posted twice (a double click, a retried post) creates one key: the second answer is the first, replayed",
  async () => {
    const page = await bed.newPage();
    await signInThroughPage(page, owner.email, PASSWORD);
    const count = async () => (await t.db.sql`select count(*)::int as n from api_keys where team_id = ${teamId}`)[0]!.n as number;
    const before = await count();
    const form = await page
      .locator("form.stack")
      .evaluate((f) =>
        Object.fromEntries(
          Array.from((f as HTMLFormElement).querySelectorAll<HTMLInputElement | HTMLSelectElement>("input, select"), (i) => [i.name, i.value]),
        ),
      );
    expect(form.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
    const send = () =>
      page.evaluate(async (fields) => {
        const res = await fetch("/dashboard/api-keys", { method: "POST", body: new URLSearchParams({ ...fields, name: "Twice" }) });
        return { status: res.status, key: /id="raw-key">([^<]+)</.exec(await res.text())?.[1] };
      }, form);
    const first = await send();
    const second = await send();
    expect(first.status).toBe(201);
    expect(second).toEqual(first);
    expect(await count()).toBe(before + 1);
    // A new rendering of the form is a new key: another create.
    await page.reload();
    expect(await page.locator('input[name="idempotencyKey"]').inputValue()).not.toBe(form.idempotencyKey);
    await page.context().close();
  },
  BROWSER_TEST_MS,
);

test(
  "sign out: the session ends, and the pages send the browser back to sign in",
  async () => {
    const page = await bed.newPage();
    await signInThroughPage(page, owner.email, PASSWORD);
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.waitForURL("**/dashboard/sign-in");
    await page.goto("/dashboard/api-keys");
    expect(page.url()).toEndWith("/dashboard/sign-in");
    await page.context().close();
  },
  BROWSER_TEST_MS,
);

test(
  "a one-time link from the CLI signs in once: the page takes the token from the fragment, the button spends it",
  async () => {
    const link = await createSignInLink(
      t.db.sql,
      { email: owner.email, teamId },
      { now: t.clock.now(), actor: OPERATOR, dashboardUrl: `${bed.base}/dashboard` },
    );
    const page = await bed.newPage();
    await page.goto(link.url);
    expect(await page.getByLabel("Link token").inputValue()).toBe(link.token);
    expect(page.url()).toBe(`${bed.base}/dashboard/sign-in`); // the token has left the address bar
    await page.getByRole("button", { name: "Sign in with the link" }).click();
    await page.waitForURL("**/dashboard/overview");
    expect(await page.locator(".team").textContent()).toContain("Dashboard team");

    const again = await bed.newPage();
    await again.goto(link.url);
    await again.getByRole("button", { name: "Sign in with the link" }).click();
    expect(await again.getByRole("alert").textContent()).toBeTruthy();
    expect(again.url()).toEndWith("/dashboard/sign-in/link");
    await page.context().close();
    await again.context().close();
  },
  BROWSER_TEST_MS,
);

test(
  "an unknown page is a 404 page, under the same policy, and logged with its request id",
  async () => {
    const page = await bed.newPage();
    const answer = (await page.goto("/dashboard/no-such-page"))!;
    expect(answer.status()).toBe(404);
    expect(answer.headers()["content-security-policy"]).toBe(CSP);
    expect(await page.getByRole("alert").textContent()).toBe("There is no such page.");
    // Logged as the API's requests are, under the id the answer carries.
    t.logger.flush();
    const logged = t.logs.map((l) => JSON.parse(l)).find((l) => l.msg === "request" && l.path === "/dashboard/no-such-page");
    expect(logged).toMatchObject({ method: "GET", status: 404, requestId: answer.headers()["x-request-id"] });
    await page.context().close();
  },
  BROWSER_TEST_MS,
);
