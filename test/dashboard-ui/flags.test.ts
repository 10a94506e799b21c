/**
 * The flags pages in Chromium: a company's flag turned off through the page changes GET /api/v1/check (asked over
 * HTTP with a secret key), and removing the override brings back the plan's answer; a trait rule refused then set;
 * the plan matrix switched; a read-only member sees no switch and a forged post changes nothing.
 */
import { expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { PASSWORD, browser as sessionOf, newOperator, newTeamWithOwner } from "../helpers/dashboard";
import { BROWSER_TEST_MS, screenshot, seriousViolations, signInThroughPage, startDashboard } from "../helpers/dashboard-browser";
import { createCatalogFixture, createCompanyOnPlan } from "../helpers/catalog";
import { newKey } from "../helpers/fixtures";

const bed = await startDashboard();
const { t } = bed;
const { teamId, owner } = await newTeamWithOwner(t);
const reader = await newOperator(t, teamId, ["customers:read", "catalog:read"]);
const ownerApi = await sessionOf(t, owner.email);
const secret = (await ownerApi.write("POST", "/dashboard/api-keys", { name: "Server", type: "secret" })).body.data.key as string;
const legacy = (await newKey(t.db.sql, teamId, "LEGACY", "development", t.clock.now())).key;
const catalog = await createCatalogFixture(t, teamId);
const companyId = await createCompanyOnPlan(t, legacy, teamId, "acme", catalog.planId, 10n);

/** GET /api/v1/check over HTTP with the secret key, as an integrator's server asks it. */
async function check(feature: string) {
  const res = await fetch(`${bed.base}/api/v1/check?company=acme&feature=${feature}`, { headers: { authorization: `Bearer ${secret}` } });
  expect(res.status).toBe(200);
  return (await res.json()).data;
}

/** The row of a feature in the company's answer (not in its overrides' table). */
const answerRow = (page: Page, feature: string) =>
  page.locator("section[aria-labelledby=answer-title] tbody tr", { has: page.locator("code", { hasText: new RegExp(`^${feature}$`) }) });

const notice = async (page: Page) => (await page.getByRole("status").last().textContent())?.trim();

test(
  "turn a flag off for one company through the page: GET /check says no at once; remove the override: the plan's answer again",
  async () => {
    const before = await check("sso");
    expect(before).toMatchObject({ access: true, source: "plan", reason: "enabled" });
    const page = await bed.newPage();
    await signInThroughPage(page, owner.email, PASSWORD);
    await page.getByRole("link", { name: "Flags" }).click();
    await page.waitForURL("**/dashboard/flags");
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, "flags-matrix");

    await page.getByLabel("Find a company (name, email or wallet)").fill("acme");
    await page.getByRole("button", { name: "Find" }).click();
    await page.getByRole("link", { name: "acme", exact: true }).click();
    await page.waitForURL(`**/dashboard/flags/companies/${companyId}`);
    const row = answerRow(page, "sso");
    expect(await row.locator("td").first().textContent()).toBe("Yes");

    await row.getByRole("button", { name: /Turn off for this company/ }).click();
    expect(await notice(page)).toBe("Override saved: sso is now off for acme.");
    expect(await check("sso")).toMatchObject({ access: false, source: "override", reason: "disabled" });
    expect(await row.locator("td").first().textContent()).toBe("No");
    expect(await row.locator("td").nth(2).textContent()).toBe("Company override");
    expect(await page.locator("section[aria-labelledby=overrides-title] tbody").textContent()).toBe("ssoOff");
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, "flags-company");

    await row.getByRole("link", { name: "Remove the override of sso" }).click();
    expect(await page.locator("main").textContent()).toContain("What its plan and add-ons grant applies again");
    expect(await check("sso")).toMatchObject({ access: false }); // nothing happens before the confirmation
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, "flags-remove-override");
    await page.getByRole("button", { name: "Remove override" }).click();
    expect(await notice(page)).toBe("Override removed: sso follows the plan of acme again.");
    expect(await check("sso")).toEqual(before);
    expect(await page.locator("main").textContent()).toContain("None: the company gets what its plan and add-ons grant.");
    await page.context().close();
  },
  BROWSER_TEST_MS,
);

test(
  "a trait rule for the company: refused with the API's message beside the field and the form kept; set, /check follows it",
  async () => {
    const page = await bed.newPage();
    await signInThroughPage(page, owner.email, PASSWORD);
    await page.goto(`/dashboard/flags/companies/${companyId}`);
    await page.getByLabel("Comparison").selectOption("gte");
    await page.getByLabel("Value").fill("5");
    await page.getByRole("button", { name: "Set trait rule" }).click();
    expect(
      await page
        .locator(".field", { has: page.locator("#traitKey") })
        .locator(".field-error")
        .count(),
    ).toBe(1);
    expect(await page.getByLabel("Comparison").inputValue()).toBe("gte");
    expect(await page.getByLabel("Value").inputValue()).toBe("5");
    expect((await check("bulk")).source).toBe("plan");

    await page.getByLabel("Trait", { exact: true }).fill("seats");
    await page.getByRole("button", { name: "Set trait rule" }).click();
    expect(await notice(page)).toBe("Override saved: bulk now follows a trait rule for acme.");
    expect(await check("bulk")).toMatchObject({ source: "override", kind: "trait", access: false, reason: "trait_not_matched" });
    const row = answerRow(page, "bulk");
    expect(await row.textContent()).toContain("seats ≥ 5");
    await ownerApi.write("DELETE", `/dashboard/companies/${companyId}/overrides/bulk`);
    await page.context().close();
  },
  BROWSER_TEST_MS,
);

test(
  "the plan matrix: turn a flag on for a plan and its companies get it; turn it off and it leaves the plan",
  async () => {
    expect(await check("beta")).toMatchObject({ access: false, reason: "disabled" });
    const page = await bed.newPage();
    await signInThroughPage(page, owner.email, PASSWORD);
    await page.goto("/dashboard/flags");
    expect(await page.locator("main").textContent()).toContain("seats ≥ 10"); // the plan's trait rule is listed
    await page.getByRole("button", { name: "Turn on: beta on Pro" }).click();
    expect(await notice(page)).toBe("beta turned on for plan Pro.");
    expect(await check("beta")).toMatchObject({ access: true, source: "plan" });
    await page.getByRole("button", { name: "Turn off: beta on Pro" }).click();
    expect(await notice(page)).toBe("beta taken off plan Pro.");
    expect(await check("beta")).toMatchObject({ access: false, reason: "not_in_plan" });
    await page.context().close();
  },
  BROWSER_TEST_MS,
);

test(
  "a read-only member (customers:read, catalog:read) sees the answers and no switch; forged posts change nothing",
  async () => {
    const before = await check("sso");
    const page = await bed.newPage();
    await signInThroughPage(page, reader.email, PASSWORD);
    await page.goto("/dashboard/flags");
    expect(await page.locator("main form[method=post]").count()).toBe(0);
    expect(await page.locator("main").textContent()).toContain("not change it");
    await page.goto(`/dashboard/flags/companies/${companyId}`);
    expect(await page.locator("main form[method=post]").count()).toBe(0);
    expect(await page.getByRole("link", { name: /Remove/ }).count()).toBe(0);
    expect(await page.locator("main").textContent()).toContain("not change it");
    await screenshot(page, "flags-read-only");

    const csrf = (await page.locator('input[name="csrf"]').first().getAttribute("value"))!;
    const post = (path: string, fields: Record<string, string>) =>
      page.evaluate(
        async ({ path, fields }) => (await fetch(path, { method: "POST", body: new URLSearchParams(fields), redirect: "manual" })).status,
        { path, fields },
      );
    expect(await post(`/dashboard/flags/companies/${companyId}/overrides/sso`, { to: "off", csrf })).toBe(403);
    expect(await post(`/dashboard/flags/plans/${catalog.planId}/sso`, { to: "off", csrf })).toBe(403);
    expect(
      await post(`/dashboard/flags/companies/${companyId}/rules`, { feature: "bulk", traitKey: "x", traitOperator: "eq", traitValue: "1", csrf }),
    ).toBe(403);
    // The owner's session without the CSRF token: refused as well.
    const ownerPage = await bed.newPage();
    await signInThroughPage(ownerPage, owner.email, PASSWORD);
    const forged = await ownerPage.evaluate(
      async (path) => (await fetch(path, { method: "POST", body: new URLSearchParams({ to: "off" }), redirect: "manual" })).status,
      `/dashboard/flags/companies/${companyId}/overrides/sso`,
    );
    expect(forged).toBe(403);
    expect(await check("sso")).toEqual(before);
    expect((await ownerApi.read(`/dashboard/companies/${companyId}/entitlements`)).body.data.overrides).toEqual([]);
    await page.context().close();
    await ownerPage.context().close();
  },
  BROWSER_TEST_MS,
);
