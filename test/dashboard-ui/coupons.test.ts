/**
 * The coupons pages in Chromium: a bad discount answered beside its field with the form kept, then created
 * (restricted to a plan); edited (PATCH) with a refusal beside its field; archived after the confirmation page.
 */
import { expect, test } from "bun:test";
import { PASSWORD, browser as sessionOf, newTeamWithOwner } from "../helpers/dashboard";
import { BROWSER_TEST_MS, screenshot, seriousViolations, signInThroughPage, startDashboard } from "../helpers/dashboard-browser";

const bed = await startDashboard();
const { t } = bed;
const { owner } = await newTeamWithOwner(t);
const ownerApi = await sessionOf(t, owner.email);
const pro = (await ownerApi.write("POST", "/dashboard/plans", { name: "Pro" })).body.data.id as string;
await ownerApi.write("POST", "/dashboard/plans", { name: "Team" });
const coupons = async () => (await ownerApi.read("/dashboard/coupons?includeArchived=true")).body.data;

test(
  "create a coupon: a bad percentage answered beside its field with the form kept; fixed, created for one plan",
  async () => {
    const page = await bed.newPage();
    await signInThroughPage(page, owner.email, PASSWORD);
    await page.getByRole("link", { name: "Coupons" }).click();
    await page.waitForURL("**/dashboard/coupons");
    await page.getByLabel("Code").fill("LAUNCH25");
    await page.getByLabel("Name (optional)").fill("Launch");
    await page.getByLabel("Percent off").fill("150");
    await page.getByLabel("Duration").selectOption("repeating");
    await page.getByLabel("Periods (repeating)").fill("3");
    await page.getByLabel("Maximum redemptions (optional)").fill("100");
    await page.getByLabel("Plans (none chosen: any plan)").selectOption([pro]);
    await page.getByRole("button", { name: "Create coupon" }).click();

    const field = page.locator(".field", { has: page.locator("#percentOff") });
    expect((await field.locator(".field-error").textContent())!.length).toBeGreaterThan(0);
    expect(await page.locator(".field-error").count()).toBe(1);
    expect(await page.getByLabel("Code").inputValue()).toBe("LAUNCH25");
    expect(await page.getByLabel("Percent off").inputValue()).toBe("150");
    expect(await page.getByLabel("Duration").inputValue()).toBe("repeating");
    expect(await page.getByLabel("Periods (repeating)").inputValue()).toBe("3");
    expect(await page.locator("#planIds option:checked").allTextContents()).toEqual(["Pro"]);
    expect(await coupons()).toEqual([]);

    await page.getByLabel("Percent off").fill("25");
    await page.getByRole("button", { name: "Create coupon" }).click();
    await page.waitForURL("**/dashboard/coupons/coupon_*?done=created");
    expect(await page.getByRole("status").textContent()).toContain("Coupon created.");
    expect(await page.locator(".facts").textContent()).toContain("25.00% off");
    const [coupon] = await coupons();
    expect(coupon).toMatchObject({
      code: "LAUNCH25",
      name: "Launch",
      percentOff: "25.00",
      duration: "repeating",
      durationPeriods: 3,
      maxRedemptions: 100,
      planIds: [pro],
    });
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, "coupons-detail");

    await page.getByRole("link", { name: "All coupons" }).click();
    const row = page.locator("tbody tr", { hasText: "LAUNCH25" });
    expect(await row.textContent()).toContain("3 periods");
    expect(await row.textContent()).toContain("0 of 100");
    expect(await row.textContent()).toContain("Pro");
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, "coupons");
    await page.context().close();
  },
  BROWSER_TEST_MS,
);

test(
  "edit a coupon (a maximum below 1 refused beside its field, input kept), then archive it through the confirmation page",
  async () => {
    const [coupon] = await coupons();
    const page = await bed.newPage();
    await signInThroughPage(page, owner.email, PASSWORD);
    await page.goto(`/dashboard/coupons/${coupon.id}`);
    await page.getByLabel("Name", { exact: true }).fill("Launch week");
    await page.getByLabel("Maximum redemptions (optional)").fill("0");
    await page.getByRole("button", { name: "Save changes" }).click();
    const field = page.locator(".field", { has: page.locator("#maxRedemptions") });
    expect((await field.locator(".field-error").textContent())!.length).toBeGreaterThan(0);
    expect(await page.getByLabel("Name", { exact: true }).inputValue()).toBe("Launch week");
    expect(await page.getByLabel("Maximum redemptions (optional)").inputValue()).toBe("0");
    expect((await coupons())[0].name).toBe("Launch");

    await page.getByLabel("Maximum redemptions (optional)").fill("");
    await page.getByRole("button", { name: "Save changes" }).click();
    await page.waitForURL("**?done=updated");
    expect((await coupons())[0]).toMatchObject({ name: "Launch week", maxRedemptions: null, percentOff: "25.00", planIds: [pro] });

    await page.getByRole("link", { name: "Archive this coupon" }).click();
    expect(await page.locator("main").textContent()).toContain("can no longer be redeemed");
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, "coupons-archive");
    await page.getByRole("button", { name: "Archive coupon" }).click();
    await page.waitForURL("**/dashboard/coupons?done=archived");
    expect(await page.getByRole("status").textContent()).toContain("Coupon archived");
    expect(await page.locator("main").textContent()).toContain("No coupons here yet.");
    expect((await coupons())[0].archived).toBe(true);
    await page.getByRole("link", { name: "Show archived coupons" }).click();
    expect(await page.locator("tbody").textContent()).toContain("Archived");
    await page.context().close();
  },
  BROWSER_TEST_MS,
);
