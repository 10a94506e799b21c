/**
 * The plans pages in Chromium: a plan created with a price and an entitlement through the pages changes GET /check
 * for a company on it; a bad price or entitlement is answered beside its field with what was typed kept; removing a
 * plan goes through a confirmation page and says whether it was archived (in use) or deleted.
 */
import { expect, test } from "bun:test";
import { assignPlan } from "../../src/modules/customers/plan";
import { PASSWORD, browser as sessionOf, newTeamWithOwner } from "../helpers/dashboard";
import { BROWSER_TEST_MS, screenshot, seriousViolations, signInThroughPage, startDashboard } from "../helpers/dashboard-browser";

const bed = await startDashboard();
const { t } = bed;
const { teamId, owner } = await newTeamWithOwner(t);
const ownerApi = await sessionOf(t, owner.email);
const tenant = { teamId, environment: "development" as const };

// The catalog's features, two keys (a legacy one identifies a company, a secret one asks /check), and a company.
for (const feature of [
  { name: "Single sign-on", featureKey: "sso", featureType: "boolean" },
  { name: "API calls", featureKey: "api-calls", featureType: "event" },
]) {
  expect((await ownerApi.write("POST", "/dashboard/features", feature)).status).toBe(201);
}
const keyOf = async (type: string) => (await ownerApi.write("POST", "/dashboard/api-keys", { name: `${type} key`, type })).body.data.key as string;
const secret = await keyOf("secret");
const legacy = await keyOf("legacy");
const identified = await t.call("POST", "/events", { token: legacy, body: { event_type: "identify", company: { id: "acme", name: "Acme" } } });
expect(identified.status).toBe(200);
const companyId = identified.body.data.companyId as string;

const check = async (feature: string) => (await t.call("GET", `/check?company=acme&feature=${feature}`, { token: secret })).body.data;
const planIdOf = (url: string) => /\/dashboard\/plans\/([^/?]+)/.exec(url)?.[1] ?? "";
let proId = "";

test(
  "sign in, create a plan with a price and an entitlement through the pages: GET /check changes for a company on it",
  async () => {
    const page = await bed.newPage();
    await signInThroughPage(page, owner.email, PASSWORD);
    await page.getByRole("link", { name: "Plans" }).click();
    await page.waitForURL("**/dashboard/plans");
    await page.getByLabel("Name").fill("Pro");
    await page.getByLabel("Plan kind").selectOption("plan");
    await page.getByLabel("Trial days (optional)").fill("14");
    await page.getByLabel("On-chain plan ids (optional)").fill("sepolia=pro-7");
    await page.getByLabel("Billing period").selectOption("monthly");
    await page.getByLabel("Amount").fill("29.00");
    await page.getByLabel("Currency").fill("usdc");
    await page.getByRole("button", { name: "Create plan" }).click();
    await page.waitForURL("**/dashboard/plans/plan_*");
    expect(await page.getByRole("status").textContent()).toContain("Plan created.");
    proId = planIdOf(page.url());
    expect(await page.locator("#prices-title + .table-wrap tbody").textContent()).toContain("29.000000");
    const plan = (await ownerApi.read(`/dashboard/plans/${proId}`)).body.data;
    expect(plan).toMatchObject({
      name: "Pro",
      kind: "plan",
      trialDays: 14,
      prices: [{ billingPeriod: "monthly", amount: "29.000000", currency: "USDC" }],
    });

    // The company goes on the plan (as a subscription would put it); the plan grants nothing yet.
    await assignPlan(t.db.sql, tenant, { company: companyId, planId: proId }, new Date(t.clock.now()));
    expect(await check("sso")).toMatchObject({ access: false });

    await page.getByLabel("Feature", { exact: true }).selectOption("sso");
    await page.getByLabel("Entitlement kind").selectOption("boolean");
    await page.getByRole("button", { name: "Set entitlement" }).click();
    await page.waitForURL(`**/dashboard/plans/${proId}?done=entitlement-set`);
    expect(await page.getByRole("status").textContent()).toContain("Entitlement saved");
    expect(await page.locator("#entitlements-title + .table-wrap tbody").textContent()).toContain("sso");
    expect(await check("sso")).toMatchObject({ access: true, kind: "boolean", source: "plan", planId: proId });

    // A quota, then GET /check reports its limit.
    await page.getByLabel("Feature", { exact: true }).selectOption("api-calls");
    await page.getByLabel("Entitlement kind").selectOption("quota");
    await page.getByLabel("Limit (quota)").fill("100");
    await page.getByLabel("Period (quota)").selectOption("month");
    await page.getByRole("button", { name: "Set entitlement" }).click();
    await page.waitForURL("**?done=entitlement-set");
    expect(await check("api-calls")).toMatchObject({ access: true, kind: "quota", limit: 100, remaining: 100, period: "month" });
    // Changed from its row: the form starts from the entitlement as it is.
    await page.getByRole("link", { name: "Change api-calls" }).click();
    expect(await page.getByLabel("Entitlement kind").inputValue()).toBe("quota");
    expect(await page.getByLabel("Period (quota)").inputValue()).toBe("month");
    expect(await page.getByLabel("Limit (quota)").inputValue()).toBe("100");
    await page.getByLabel("Limit (quota)").fill("200");
    await page.getByRole("button", { name: "Set entitlement" }).click();
    await page.waitForURL("**?done=entitlement-set");
    expect(await check("api-calls")).toMatchObject({ kind: "quota", limit: 200, period: "month" });
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, "plans-detail");

    // Removing the entitlement (after its confirmation page) takes it away again.
    await page.getByRole("link", { name: "Remove sso" }).click();
    expect(await page.locator("main").textContent()).toContain("Companies on the plan lose it at once");
    await page.getByRole("button", { name: "Remove entitlement" }).click();
    await page.waitForURL("**?done=entitlement-removed");
    expect(await check("sso")).toMatchObject({ access: false });
    await page.context().close();
  },
  BROWSER_TEST_MS,
);

test(
  "a bad price and a bad entitlement are answered beside their fields with what was typed kept; nothing changes",
  async () => {
    const page = await bed.newPage();
    await signInThroughPage(page, owner.email, PASSWORD);
    // On the create form: the price's amount, named by the API as prices[0].amount.
    await page.goto("/dashboard/plans");
    await page.getByLabel("Name").fill("Broken");
    await page.getByLabel("Amount").fill("1.1234567");
    await page.getByLabel("Currency").fill("USDC");
    await page.getByLabel("On-chain plan ids (optional)").fill("nowhere=1");
    await page.getByRole("button", { name: "Create plan" }).click();
    const amountField = page.locator(".field", { has: page.locator("#priceAmount") });
    expect((await amountField.locator(".field-error").textContent())!.length).toBeGreaterThan(0);
    const idsField = page.locator(".field", { has: page.locator("#onchainPlanIds") });
    expect((await idsField.locator(".field-error").textContent())!.length).toBeGreaterThan(0);
    expect(await page.getByLabel("On-chain plan ids (optional)").inputValue()).toBe("nowhere=1");
    expect(await page.getByLabel("Name").inputValue()).toBe("Broken");
    expect(await page.getByLabel("Amount").inputValue()).toBe("1.1234567");
    expect((await ownerApi.read("/dashboard/plans")).body.data.map((p: { name: string }) => p.name)).toEqual(["Pro"]);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, "plans-invalid");

    await page.goto(`/dashboard/plans/${proId}`);
    await page.getByLabel("Billing period").selectOption("yearly");
    await page.getByLabel("Amount").fill("-5");
    await page.getByLabel("Currency").fill("USDC");
    await page.getByRole("button", { name: "Set price" }).click();
    expect(await amountField.locator(".field-error").count()).toBe(1);
    expect(await page.locator("#priceAmount").getAttribute("aria-describedby")).toContain("priceAmount-error");
    expect(await page.getByLabel("Amount").inputValue()).toBe("-5");
    expect(await page.getByLabel("Billing period").inputValue()).toBe("yearly");

    // A quota without its period: the API names the field, and says why above the form.
    await page.getByLabel("Feature", { exact: true }).selectOption("api-calls");
    await page.getByLabel("Entitlement kind").selectOption("quota");
    await page.getByLabel("Limit (quota)").fill("50");
    await page.getByLabel("Period (quota)").selectOption("");
    await page.getByRole("button", { name: "Set entitlement" }).click();
    const periodField = page.locator(".field", { has: page.locator("#entPeriod") });
    expect((await periodField.locator(".field-error").textContent())!.length).toBeGreaterThan(0);
    expect(await page.locator(".form-error").textContent()).toContain("Quota needs limit and period");
    expect(await page.getByLabel("Limit (quota)").inputValue()).toBe("50");
    expect(await page.getByLabel("Entitlement kind").inputValue()).toBe("quota");
    expect(await page.getByLabel("Feature", { exact: true }).inputValue()).toBe("api-calls");

    // A quota on a boolean feature: refused for the kind.
    await page.getByLabel("Feature", { exact: true }).selectOption("sso");
    await page.getByLabel("Period (quota)").selectOption("month");
    await page.getByRole("button", { name: "Set entitlement" }).click();
    const kindField = page.locator(".field", { has: page.locator("#entKind") });
    expect(await kindField.locator(".field-error").textContent()).toContain("event feature");

    const plan = (await ownerApi.read(`/dashboard/plans/${proId}`)).body.data;
    expect(plan.prices).toEqual([{ billingPeriod: "monthly", amount: "29.000000", currency: "USDC" }]);
    expect(plan.entitlements.map((e: { featureKey: string; limit: string }) => [e.featureKey, e.limit])).toEqual([["api-calls", "200"]]);
    await page.context().close();
  },
  BROWSER_TEST_MS,
);

test(
  "edit, then remove through the confirmation page: a plan in use is archived (and says so), an unused add-on deleted; the kind filter",
  async () => {
    const addOn = await ownerApi.write("POST", "/dashboard/plans", { name: "Extra seats", kind: "add_on" });
    expect(addOn.status).toBe(201);
    const page = await bed.newPage();
    await signInThroughPage(page, owner.email, PASSWORD);
    await page.goto("/dashboard/plans");
    expect(await page.locator("tbody").textContent()).toContain("Add-on");
    await page.getByLabel("Kind", { exact: true }).selectOption("add_on");
    await page.getByRole("button", { name: "Filter" }).click();
    await page.waitForURL("**/dashboard/plans?kind=add_on");
    expect(await page.locator("tbody tr").count()).toBe(1);
    expect(await page.locator("tbody").textContent()).toContain("Extra seats");
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, "plans");

    // Edit (PATCH): the trial changes, the rest stays.
    await page.goto(`/dashboard/plans/${proId}`);
    await page.getByLabel("Trial days", { exact: true }).fill("30");
    expect(await page.getByLabel("On-chain plan ids", { exact: true }).inputValue()).toBe("sepolia=pro-7");
    await page.getByLabel("On-chain plan ids", { exact: true }).fill("");
    await page.getByRole("button", { name: "Save changes" }).click();
    await page.waitForURL("**?done=updated");
    expect((await ownerApi.read(`/dashboard/plans/${proId}`)).body.data).toMatchObject({
      trialDays: 30,
      name: "Pro",
      kind: "plan",
      onchainPlanIds: {},
    });

    // Pro has a company on it: archived, and the page says so.
    await page.getByRole("link", { name: "Archive or delete this plan" }).click();
    await page.waitForURL(`**/dashboard/plans/${proId}/remove`);
    expect(await page.locator("main").textContent()).toContain("The next page says which happened");
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, "plans-remove");
    await page.getByRole("button", { name: "Archive or delete" }).click();
    await page.waitForURL(`**/dashboard/plans/${proId}?done=archived`);
    expect(await page.getByRole("status").textContent()).toContain("archived, not deleted");
    expect((await ownerApi.read(`/dashboard/plans/${proId}`)).body.data.archived).toBe(true);
    expect(await check("api-calls")).toMatchObject({ access: true }); // companies on it keep their entitlements

    // The unused add-on: deleted.
    await page.goto(`/dashboard/plans/${addOn.body.data.id}/remove`);
    await page.getByRole("button", { name: "Archive or delete" }).click();
    await page.waitForURL("**/dashboard/plans?done=deleted");
    expect(await page.getByRole("status").textContent()).toContain("deleted");
    expect((await ownerApi.read(`/dashboard/plans/${addOn.body.data.id}`)).status).toBe(404);

    // Restored from its page.
    await page.goto(`/dashboard/plans/${proId}`);
    await page.getByRole("button", { name: "Restore plan" }).click();
    await page.waitForURL("**?done=restored");
    expect((await ownerApi.read(`/dashboard/plans/${proId}`)).body.data.archived).toBe(false);
    await page.context().close();
  },
  BROWSER_TEST_MS,
);
