/**
 * The overview in Chromium at a fixed instant of the test clock: the charts' tables print the API's figures, the
 * SVGs hold one bar or point per figure, a refused range shows the API's message beside its field with what was
 * typed kept, a member without billing:read sees usage and a note instead of money, hostile names print as text,
 * axe finds nothing serious, and the page fits a phone.
 */
import { expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { PASSWORD, browser as sessionOf, newOperator, newTeamWithOwner } from "../helpers/dashboard";
import { BROWSER_TEST_MS, screenshot, seriousViolations, signInThroughPage, startDashboard } from "../helpers/dashboard-browser";
import { createCatalogFixture, createCompanyOnPlan } from "../helpers/catalog";
import { newKey } from "../helpers/fixtures";
import { createFeature } from "../../src/modules/catalog/features/edit";
import { setEntitlement } from "../../src/modules/catalog/entitlements/edit";
import type { Tenant } from "../../src/lib/tenant";
import { at, NOW, seedRenewals, seedRevenue, seedUsage } from "../reports/seed";

const HOSTILE = `<img src=x onerror=window.__x=1>"><script>window.__x=1</script>`;

const bed = await startDashboard();
const { t } = bed;
at(t, NOW);
const { teamId, owner } = await newTeamWithOwner(t);
const tenant: Tenant = { teamId, environment: "development" };
const reader = await newOperator(t, teamId, ["catalog:read"]);
const legacy = (await newKey(t.db.sql, teamId, "LEGACY", "development", t.clock.now())).key;
const catalog = await createCatalogFixture(t, teamId, "development", 10_000n);
const hostile = await createFeature(t.db.sql, tenant, { name: HOSTILE, featureKey: "hostile", featureType: "event" });
await setEntitlement(t.db.sql, tenant, { planId: catalog.planId, featureId: hostile.id, kind: "quota", limit: 10_000n, period: "month" });
await createCompanyOnPlan(t, legacy, teamId, "acme", catalog.planId);
await seedUsage(t, legacy, "acme", "hostile");
await seedRevenue(t, tenant);
await seedRenewals(t, tenant, catalog.planId);
at(t, NOW);
const api = await sessionOf(t, owner.email);

const cells = (page: Page, table: string) =>
  page
    .locator(`${table} tbody tr`)
    .evaluateAll((rows) => rows.map((r) => Array.from(r.querySelectorAll("th, td")).map((c) => c.textContent!.trim())));

async function overview(page: Page, email: string, query = "") {
  await signInThroughPage(page, email, PASSWORD);
  const answer = await page.goto(`/dashboard/overview${query}`);
  return answer!.status();
}

test(
  "the charts' tables print the API's figures for the default ranges, and the SVGs hold one point or bar per figure",
  async () => {
    const page = await bed.newPage();
    expect(await overview(page, owner.email)).toBe(200);
    // Usage: the API's default range (its clock, not the machine's), the first feature with usage charted.
    const usage = (await api.read("/dashboard/reports/usage")).body.data;
    expect([usage.from, usage.to]).toEqual(["2026-02-14", "2026-03-15"]);
    expect(await page.getByLabel("From (UTC day)").inputValue()).toBe("2026-02-14");
    expect(await page.getByLabel("To (UTC day)").inputValue()).toBe("2026-03-15");
    const first = usage.features[0];
    expect(first.featureKey).toBe("api-calls");
    expect(await cells(page, "#usage-table")).toEqual(first.points.map((p: { day: string; quantity: string }) => [p.day, p.quantity]));
    expect(await page.locator('svg[data-chart="usage-chart"] circle.point').count()).toBe(30);
    expect(await page.locator('svg[data-chart="usage-chart"]').getAttribute("role")).toBe("img");
    expect(await page.locator('svg[data-chart="usage-chart"] title').first().textContent()).toContain("API calls");

    // Revenue: one bar per month, the table the API's strings.
    const revenue = (await api.read("/dashboard/reports/revenue")).body.data;
    expect([revenue.from, revenue.to, revenue.currencies.length]).toEqual(["2025-04", "2026-03", 1]);
    const usdc = revenue.currencies[0];
    expect(await page.locator('svg[data-chart="revenue-0-chart"] rect.bar').count()).toBe(12);
    expect(await cells(page, "#revenue-0-table")).toEqual(
      usdc.months.map((m: Record<string, string | number>) => [m.month, m.paid, m.refunded, m.credited, m.net, String(m.invoicesPaid)]),
    );
    expect(await page.locator("#revenue-0-table tfoot").textContent()).toContain(usdc.total.net);
    const heights = await page
      .locator('svg[data-chart="revenue-0-chart"] rect.bar')
      .evaluateAll((r) => r.map((e) => Number(e.getAttribute("height"))));
    expect(heights.filter((h) => h > 0)).toHaveLength(2); // January and February
    expect(heights[9]).toBeGreaterThan(heights[10]!); // 100 > 50

    // Renewals: two bars a month, the table the API's counts.
    const renewals = (await api.read("/dashboard/reports/renewals")).body.data;
    expect(await page.locator('svg[data-chart="renewals-chart"] rect.bar').count()).toBe(24);
    expect(await cells(page, "#renewals-table")).toEqual(
      renewals.months.map((m: Record<string, string | number>) =>
        [m.month, m.renewalsSucceeded, m.renewalsFailed, m.failedCharges, m.dunningRetries, m.recovered, m.canceledUnpaid].map(String),
      ),
    );
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, "overview");

    // Another feature and range through the form: the API's answer for them.
    await page.getByLabel("Feature").selectOption("api-calls");
    await page.getByLabel("From (UTC day)").fill("2026-03-10");
    await page.getByLabel("To (UTC day)").fill("2026-03-13");
    await page.getByRole("button", { name: "Show usage" }).click();
    await page.waitForURL("**/dashboard/overview?**");
    expect(await cells(page, "#usage-table")).toEqual([
      ["2026-03-10", "4"],
      ["2026-03-11", "0"],
      ["2026-03-12", "5"],
      ["2026-03-13", "2"],
    ]);
    expect(await page.locator('svg[data-chart="usage-chart"] circle.point').count()).toBe(4);
    // The month range kept its defaults, the charts for months still there.
    expect(await page.locator('svg[data-chart="renewals-chart"] rect.bar').count()).toBe(24);
    await page.context().close();
  },
  BROWSER_TEST_MS,
);

test(
  "a refused range: the API's message beside the field, what was typed kept, the API's status",
  async () => {
    const page = await bed.newPage();
    await overview(page, owner.email);
    await page.getByLabel("From (UTC day)").fill("2026-03-14");
    await page.getByLabel("To (UTC day)").fill("2026-03-01");
    const answer = page.waitForResponse((r) => r.url().includes("/dashboard/overview?"));
    await page.getByRole("button", { name: "Show usage" }).click();
    expect((await answer).status()).toBe(400);
    const refusal = await api.read("/dashboard/reports/usage?feature=api-calls&from=2026-03-14&to=2026-03-01");
    expect(refusal.status).toBe(400);
    expect(await page.locator("#from-error").textContent()).toBe(refusal.body.details["query.from"]);
    expect(await page.locator("#from").getAttribute("aria-invalid")).toBe("true");
    expect(await page.getByLabel("From (UTC day)").inputValue()).toBe("2026-03-14");
    expect(await page.getByLabel("To (UTC day)").inputValue()).toBe("2026-03-01");
    expect(await page.locator('svg[data-chart="usage-chart"]').count()).toBe(0);
    expect(await page.locator('svg[data-chart="renewals-chart"]').count()).toBe(1); // the months were not refused

    // Months: too long a range, beside its field.
    await page.getByLabel("From (UTC month, YYYY-MM)").fill("2023-01");
    await page.getByLabel("To (UTC month, YYYY-MM)").fill("2026-03");
    await page.getByRole("button", { name: "Show months" }).click();
    await page.waitForURL("**monthFrom=2023-01**");
    const months = await api.read("/dashboard/reports/revenue?from=2023-01&to=2026-03");
    expect(await page.locator("#monthFrom-error").textContent()).toBe(months.body.details["query.from"]);
    expect(await page.getByLabel("From (UTC month, YYYY-MM)").inputValue()).toBe("2023-01");
    // The usage range typed before is carried along, still refused beside its field.
    expect(await page.getByLabel("From (UTC day)").inputValue()).toBe("2026-03-14");
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, "overview-invalid");
    await page.context().close();
  },
  BROWSER_TEST_MS,
);

test(
  "a member without billing:read sees usage and a note instead of revenue and renewals",
  async () => {
    const page = await bed.newPage();
    expect(await overview(page, reader.email)).toBe(200);
    expect(await page.locator('svg[data-chart="usage-chart"] circle.point').count()).toBe(30);
    expect(await page.locator('svg[data-chart^="revenue"]').count()).toBe(0);
    expect(await page.locator('svg[data-chart="renewals-chart"]').count()).toBe(0);
    expect(await page.locator("#money-hidden").textContent()).toContain("billing:read");
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, "overview-usage-only");
    await page.context().close();
  },
  BROWSER_TEST_MS,
);

test(
  "hostile feature names print as text in the picker, the chart and the tables; on a phone the page fits",
  async () => {
    const page = await bed.newPage({ width: 375, height: 740 });
    await overview(page, owner.email, "?feature=hostile");
    expect(await page.locator("#usage-table caption").textContent()).toContain(HOSTILE);
    expect(await page.locator('svg[data-chart="usage-chart"] title').first().textContent()).toContain(HOSTILE);
    expect(await page.locator("#feature option", { hasText: "hostile" }).textContent()).toContain(HOSTILE);
    expect(await page.locator("main img, main script").count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { __x?: number }).__x)).toBeUndefined();
    expect(await cells(page, "#usage-table")).toContainEqual(["2026-03-13", "7"]);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBe(0);
    await screenshot(page, "overview-phone"); // the same page as the first test's, where axe ran
    expect(bed.blocked).toEqual([]);
    await page.context().close();
  },
  BROWSER_TEST_MS,
);
