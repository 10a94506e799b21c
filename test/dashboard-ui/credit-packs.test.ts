/**
 * The credit packs page in Chromium: reached from the plans page; a bad network answered beside its field with the
 * form kept, then created; archived (packs are immutable) after the confirmation page.
 */
import { expect, test } from "bun:test";
import { PASSWORD, browser as sessionOf, newTeamWithOwner } from "../helpers/dashboard";
import { BROWSER_TEST_MS, screenshot, seriousViolations, signInThroughPage, startDashboard } from "../helpers/dashboard-browser";

const bed = await startDashboard();
const { t } = bed;
const { owner } = await newTeamWithOwner(t);
const ownerApi = await sessionOf(t, owner.email);
const packs = async () => (await ownerApi.read("/dashboard/credit-packs?includeArchived=true")).body.data;

test(
  "create a credit pack from the plans page's link: a bad network beside its field with the form kept; fixed, listed; archived after the confirmation",
  async () => {
    const page = await bed.newPage();
    await signInThroughPage(page, owner.email, PASSWORD);
    await page.goto("/dashboard/plans");
    await page.getByRole("link", { name: "credit packs" }).click();
    await page.waitForURL("**/dashboard/credit-packs");
    await page.getByLabel("Key").fill("starter");
    await page.getByLabel("Name (optional)").fill("Starter pack");
    await page.getByLabel("Credits").fill("1000");
    await page.getByLabel("Network").fill("nowhere");
    await page.getByLabel("Token", { exact: true }).fill("USDC");
    await page.getByLabel("Amount in token units").fill("2500000");
    await page.getByLabel("Offer it on the insufficient-credit 402").check();
    await page.getByRole("button", { name: "Create credit pack" }).click();

    const field = page.locator(".field", { has: page.locator("#network") });
    expect((await field.locator(".field-error").textContent())!.length).toBeGreaterThan(0);
    expect(await page.getByLabel("Key").inputValue()).toBe("starter");
    expect(await page.getByLabel("Network").inputValue()).toBe("nowhere");
    expect(await page.getByLabel("Amount in token units").inputValue()).toBe("2500000");
    expect(await page.getByLabel("Offer it on the insufficient-credit 402").isChecked()).toBe(true);
    expect(await packs()).toEqual([]);

    await page.getByLabel("Network").fill("base-sepolia");
    await page.getByRole("button", { name: "Create credit pack" }).click();
    await page.waitForURL("**/dashboard/credit-packs?done=created");
    expect(await page.getByRole("status").textContent()).toContain("Credit pack created.");
    const row = page.locator("tbody tr", { hasText: "starter" });
    expect(await row.textContent()).toContain("2500000 USDC units on base-sepolia");
    const [pack] = await packs();
    expect(pack).toMatchObject({ key: "starter", name: "Starter pack", credits: "1000", offerOnPaymentRequired: true, enabled: true });
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, "credit-packs");

    await page.getByRole("link", { name: "Archive Starter pack" }).click();
    expect(await page.locator("main").textContent()).toContain("Packs are never deleted");
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole("button", { name: "Archive credit pack" }).click();
    await page.waitForURL("**/dashboard/credit-packs?done=archived");
    expect(await page.getByRole("status").textContent()).toContain("Credit pack archived");
    expect((await packs())[0].archived).toBe(true);
    expect(await page.locator("main").textContent()).toContain("No credit packs here yet.");
    await page.context().close();
  },
  BROWSER_TEST_MS,
);
