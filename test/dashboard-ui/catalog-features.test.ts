/**
 * A feature's page in Chromium: edited (PATCH) with a bad event key answered beside its field and the form kept;
 * removal through the confirmation page, refused with the API's words while a plan uses the feature, and a
 * deletion said as such otherwise.
 */
import { expect, test } from "bun:test";
import { PASSWORD, browser as sessionOf, newTeamWithOwner } from "../helpers/dashboard";
import { BROWSER_TEST_MS, screenshot, seriousViolations, signInThroughPage, startDashboard } from "../helpers/dashboard-browser";

const bed = await startDashboard();
const { t } = bed;
const { owner } = await newTeamWithOwner(t);
const ownerApi = await sessionOf(t, owner.email);
expect((await ownerApi.write("POST", "/dashboard/features", { name: "Seats", featureKey: "seats", featureType: "event" })).status).toBe(201);
expect((await ownerApi.write("POST", "/dashboard/features", { name: "Old toggle", featureKey: "old-toggle", featureType: "boolean" })).status).toBe(
  201,
);
const pro = (await ownerApi.write("POST", "/dashboard/plans", { name: "Pro" })).body.data.id as string;
expect((await ownerApi.write("PUT", `/dashboard/plans/${pro}/entitlements/seats`, { kind: "quota", limit: 10, period: "month" })).status).toBe(200);
const feature = async (key: string) => await ownerApi.read(`/dashboard/features/${key}`);

test(
  "edit a feature: a bad event key beside its field with the form kept; fixed, saved as the API answers",
  async () => {
    const page = await bed.newPage();
    await signInThroughPage(page, owner.email, PASSWORD);
    await page.goto("/dashboard/features");
    await page.getByRole("link", { name: "Seats" }).click();
    await page.waitForURL("**/dashboard/features/seats");
    expect(await page.locator(".facts").textContent()).toContain("Pro");
    await page.getByLabel("Name").fill("Seats in use");
    await page.getByLabel("Event key").fill("Bad Key!");
    await page.getByLabel("Description").fill("Counted per seat");
    await page.getByRole("button", { name: "Save changes" }).click();

    const field = page.locator(".field", { has: page.locator("#eventKey") });
    expect((await field.locator(".field-error").textContent())!.length).toBeGreaterThan(0);
    expect(await page.locator(".field-error").count()).toBe(1);
    expect(await page.getByLabel("Name").inputValue()).toBe("Seats in use");
    expect(await page.getByLabel("Event key").inputValue()).toBe("Bad Key!");
    expect(await page.getByLabel("Description").inputValue()).toBe("Counted per seat");
    expect((await feature("seats")).body.data.name).toBe("Seats");

    await page.getByLabel("Event key").fill("seat.used");
    await page.getByRole("button", { name: "Save changes" }).click();
    await page.waitForURL("**/dashboard/features/seats?done=updated");
    expect(await page.getByRole("status").textContent()).toContain("Changes saved.");
    expect((await feature("seats")).body.data).toMatchObject({
      name: "Seats in use",
      eventKey: "seat.used",
      description: "Counted per seat",
      featureType: "event",
    });
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, "features-edit");
    await page.context().close();
  },
  BROWSER_TEST_MS,
);

test(
  "remove through the confirmation page: refused with the API's words while a plan uses the feature; an unused one deleted",
  async () => {
    const page = await bed.newPage();
    await signInThroughPage(page, owner.email, PASSWORD);
    await page.goto("/dashboard/features/seats");
    await page.getByRole("link", { name: "Archive or delete this feature" }).click();
    await page.waitForURL("**/dashboard/features/seats/remove");
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, "features-remove");
    await page.getByRole("button", { name: "Archive or delete" }).click();
    expect(await page.getByRole("alert").textContent()).toContain("Pro");
    expect((await feature("seats")).body.data.archived).toBe(false);

    await page.goto("/dashboard/features/old-toggle/remove");
    await page.getByRole("button", { name: "Archive or delete" }).click();
    await page.waitForURL("**/dashboard/features?done=deleted");
    expect(await page.getByRole("status").textContent()).toContain("The feature was deleted");
    expect((await feature("old-toggle")).status).toBe(404);
    await page.context().close();
  },
  BROWSER_TEST_MS,
);
