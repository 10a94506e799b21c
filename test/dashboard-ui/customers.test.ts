/**
 * The customers pages in Chromium: search finds a company; its page shows usage against limits and credits as the API
 * answers them, its events and users; users are listed and searched; long lists page with the API's cursor; hostile
 * company names, traits and user names print as text; a read-only member sees no write control; a company's page lists
 * its newest invoices (the invoice list filtered by company) and links the rest.
 */
import { expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { PASSWORD, browser as sessionOf, newOperator, newTeamWithOwner } from "../helpers/dashboard";
import { BROWSER_TEST_MS, screenshot, seriousViolations, signInThroughPage, startDashboard } from "../helpers/dashboard-browser";
import { createCatalogFixture, createCompanyOnPlan } from "../helpers/catalog";
import { newKey } from "../helpers/fixtures";

const IMG = "<img src=x onerror=window.__pwned=1>";
const SCRIPT = '"><script>window.__pwned=2</script>';

const bed = await startDashboard();
const { t } = bed;
const { teamId, owner } = await newTeamWithOwner(t);
const reader = await newOperator(t, teamId, ["customers:read", "catalog:read"]);
const ownerApi = await sessionOf(t, owner.email);
const legacy = (await newKey(t.db.sql, teamId, "LEGACY", "development", t.clock.now())).key;
const catalog = await createCatalogFixture(t, teamId);
const identify = (body: Record<string, unknown>) => t.call("POST", "/events", { token: legacy, body: { event_type: "identify", ...body } });
const acmeId = await createCompanyOnPlan(t, legacy, teamId, "acme", catalog.planId, 10n);
await identify({
  company: { id: "acme", name: "Acme Inc.", email: "billing@acme.test", traits: { seats: 12, region: "eu" } },
  user: { id: "u-ada", name: "Ada", email: "ada@acme.test" },
});
const globexId = await createCompanyOnPlan(t, legacy, teamId, "globex", catalog.planId);
await identify({ company: { id: "globex", name: "Globex", email: "ops@globex.test" } });
const evil = await identify({
  company: { id: "evil", name: IMG, email: "evil@evil.test", traits: { note: SCRIPT, [IMG]: SCRIPT } },
  user: { id: "u-evil", name: SCRIPT, email: "mallory@evil.test" },
});
const evilId = evil.body.data.companyId as string;
// A hostile feature and plan name, for the flags matrix.
expect((await ownerApi.write("POST", "/dashboard/features", { name: IMG, featureKey: "hostile", featureType: "boolean" })).status).toBe(201);
expect((await ownerApi.write("POST", "/dashboard/plans", { name: SCRIPT })).status).toBe(201);
expect((await t.call("POST", "/usage/consume", { token: legacy, body: { company: "acme", feature: "api-calls", quantity: 2 } })).status).toBe(200);

/** A draft invoice addressed to the company (the integrator's id). */
async function invoiceFor(company: string, description: string): Promise<string> {
  const res = await ownerApi.write("POST", "/dashboard/invoices", {
    currency: "USDC",
    companyId: company,
    lineItems: [{ description, quantity: 1, unitAmount: "5", taxRate: "0" }],
  });
  expect(res.status).toBe(201);
  return res.body.data.id as string;
}

/** Nothing ran, nothing was made from a value, and each value is there as text. */
async function expectInert(page: Page, texts: string[]) {
  expect(await page.evaluate(() => (window as { __pwned?: unknown }).__pwned)).toBeUndefined();
  expect(await page.locator("img").count()).toBe(0);
  expect(await page.locator("script").count()).toBe(1);
  const shown = (await page.locator("body").innerText()).replace(/\s+/g, " ");
  for (const text of texts) expect(shown).toContain(text);
}

test(
  "search finds a company; its page shows usage against limits and credits as GET /entitlements answers, its events and users",
  async () => {
    const page = await bed.newPage();
    await signInThroughPage(page, owner.email, PASSWORD);
    await page.getByRole("link", { name: "Customers" }).click();
    await page.waitForURL("**/dashboard/customers");
    expect(await page.locator("tbody tr").count()).toBe(3);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, "customers");

    await page.getByLabel("Search companies (name, email or wallet)").fill("glob");
    await page.getByRole("button", { name: "Search" }).click();
    expect(await page.locator("tbody tr").allTextContents()).toEqual([expect.stringContaining("Globex")]);
    await page.getByLabel("Search companies (name, email or wallet)").fill("acme");
    await page.getByRole("button", { name: "Search" }).click();
    await page.getByRole("link", { name: "Acme Inc." }).click();
    await page.waitForURL(`**/dashboard/customers/${acmeId}`);

    const api = (await ownerApi.read(`/dashboard/companies/${acmeId}/entitlements`)).body.data;
    const apiCalls = api.features.find((f: { featureKey: string }) => f.featureKey === "api-calls");
    const aiTokens = api.features.find((f: { featureKey: string }) => f.featureKey === "ai-tokens");
    expect(apiCalls).toMatchObject({ used: 2, limit: 5, remaining: 3 });
    const usage = page.locator("section[aria-labelledby=usage-title] tbody");
    const row = async (key: string) => (await usage.locator("tr", { has: page.locator("code", { hasText: key }) }).textContent()) ?? "";
    expect(await row("api-calls")).toContain(`${apiCalls.used} of ${apiCalls.limit} used (${apiCalls.remaining} left, resets`);
    expect(await row("ai-tokens")).toContain(`${aiTokens.creditBalance} credits left, ${aiTokens.creditsPerUse} per use`);
    expect(aiTokens.creditBalance).toBe("10");
    const main = (await page.locator("main").innerText()).replace(/\s+/g, " ");
    for (const text of ["billing@acme.test", "Pro", "seats 12", "region eu", "Ada", "ada@acme.test", "No subscription.", "No invoices."]) {
      expect(main).toContain(text);
    }
    expect(await page.locator("section[aria-labelledby=events-title] tbody").textContent()).toContain("api-calls");
    expect(await page.getByRole("link", { name: "Flags and overrides for this company" }).getAttribute("href")).toBe(
      `/dashboard/flags/companies/${acmeId}`,
    );
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, "customers-company");

    await page.getByRole("link", { name: "All companies" }).click();
    await page.getByRole("navigation", { name: "Customers" }).getByRole("link", { name: "Users" }).click();
    await page.getByLabel("Search users (name, email or wallet)").fill("ada@");
    await page.getByRole("button", { name: "Search" }).click();
    expect(await page.locator("tbody tr").allTextContents()).toEqual([expect.stringContaining("Ada")]);
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole("link", { name: acmeId }).click();
    await page.waitForURL(`**/dashboard/customers/${acmeId}`);
    await page.context().close();
  },
  BROWSER_TEST_MS,
);

test(
  "hostile company names, traits, user names, feature and plan names print as text on the lists, the company's page and the flags pages",
  async () => {
    const page = await bed.newPage();
    await signInThroughPage(page, owner.email, PASSWORD);
    await page.goto("/dashboard/customers");
    await expectInert(page, [IMG]);
    await page.goto("/dashboard/customers/users");
    await expectInert(page, [SCRIPT]);
    await page.goto(`/dashboard/customers/${evilId}`);
    await expectInert(page, [`Company ${IMG}`, `note ${SCRIPT}`, `${IMG} ${SCRIPT}`, SCRIPT]);
    await screenshot(page, "customers-hostile");
    await page.goto(`/dashboard/flags/companies/${evilId}`);
    await expectInert(page, [`Flags for ${IMG}`]);
    await page.goto(`/dashboard/flags?company=${encodeURIComponent("evil@")}`);
    await expectInert(page, [`${IMG} hostile`, SCRIPT]);
    expect(bed.blocked).toEqual([]);
    await page.context().close();
  },
  BROWSER_TEST_MS,
);

test(
  "a read-only member sees the company and no write control; parts the roles do not reach say so",
  async () => {
    const page = await bed.newPage();
    await signInThroughPage(page, reader.email, PASSWORD);
    await page.goto(`/dashboard/customers/${acmeId}`);
    expect(await page.locator("main form[method=post]").count()).toBe(0);
    expect(await page.locator("section[aria-labelledby=subscription-title]").textContent()).toContain("Your role does not let you read this.");
    expect(await page.locator("section[aria-labelledby=invoices-title]").textContent()).toContain("Your role does not let you read this.");
    expect(await page.locator("section[aria-labelledby=usage-title] tbody").textContent()).toContain("2 of 5 used");
    await page.context().close();
  },
  BROWSER_TEST_MS,
);

test(
  "a long list of companies pages with the API's cursor, the search kept",
  async () => {
    const { teamId: big, owner: bigOwner } = await newTeamWithOwner(t);
    const key = (await newKey(t.db.sql, big, "LEGACY", "development", t.clock.now())).key;
    for (let i = 0; i < 52; i++) {
      const res = await t.call("POST", "/events", { token: key, body: { event_type: "identify", company: { id: `c-${i}`, name: `Many ${i}` } } });
      expect(res.status).toBe(200);
    }
    const page = await bed.newPage();
    await signInThroughPage(page, bigOwner.email, PASSWORD);
    await page.goto("/dashboard/customers?search=many");
    expect(await page.locator("tbody tr").count()).toBe(50);
    await page.getByRole("link", { name: "Next page" }).click();
    expect(new URL(page.url()).searchParams.get("search")).toBe("many");
    expect(await page.locator("tbody tr").count()).toBe(2);
    expect(await page.getByRole("link", { name: "Next page" }).count()).toBe(0);
    await page.context().close();
  },
  BROWSER_TEST_MS,
);

test(
  "a company's page lists its newest 20 invoices by the company filter; More invoices opens the invoice list filtered by it",
  async () => {
    const ids: string[] = [];
    for (let n = 0; n < 21; n++) ids.push(await invoiceFor("globex", `Month ${n}`));
    const elsewhere = await invoiceFor("evil", "Not Globex's");
    const page = await bed.newPage();
    await signInThroughPage(page, owner.email, PASSWORD);
    await page.goto(`/dashboard/customers/${globexId}`);
    const rows = page.locator("section[aria-labelledby=invoices-title] tbody tr");
    expect(await rows.count()).toBe(20);
    const shown = await page
      .locator("section[aria-labelledby=invoices-title] tbody a")
      .evaluateAll((links) => links.map((a) => a.getAttribute("href")));
    expect(shown).toEqual(
      ids
        .slice(1)
        .reverse()
        .map((id) => `/dashboard/invoices/${id}`),
    );
    await page.getByRole("link", { name: "More invoices" }).click();
    await page.waitForURL(`**/dashboard/invoices?companyId=${globexId}`);
    expect(await page.getByLabel("Company").inputValue()).toBe(globexId);
    const listed = await page.locator("tbody a").evaluateAll((links) => links.map((a) => a.getAttribute("href")));
    expect(listed).toHaveLength(21);
    expect(listed).not.toContain(`/dashboard/invoices/${elsewhere}`);
    // Acme has none, and no link to more.
    await page.goto(`/dashboard/customers/${acmeId}`);
    expect(await page.locator("section[aria-labelledby=invoices-title]").textContent()).toContain("No invoices.");
    expect(await page.getByRole("link", { name: "More invoices" }).count()).toBe(0);
    await page.context().close();
  },
  BROWSER_TEST_MS,
);
