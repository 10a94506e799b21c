/**
 * The features page in Chromium: a bad feature key answered with the API's message beside the field and the
 * form kept, then fixed; the environment switch (production unmistakable, its own data); a phone's width.
 */
import { expect, test } from "bun:test";
import { PASSWORD, browser as sessionOf, newTeamWithOwner } from "../helpers/dashboard";
import { BROWSER_TEST_MS, screenshot, seriousViolations, signInThroughPage, startDashboard } from "../helpers/dashboard-browser";

const bed = await startDashboard();
const { t } = bed;
const { owner } = await newTeamWithOwner(t);

test(
  "create a feature: a bad key gets the API's message next to the field with what was typed kept; fixed, the feature is listed",
  async () => {
    const page = await bed.newPage();
    await signInThroughPage(page, owner.email, PASSWORD);
    await page.getByRole("link", { name: "Features" }).click();
    await page.waitForURL("**/dashboard/features");
    await page.getByLabel("Name").fill("Seats");
    await page.getByLabel("Feature key").fill("Bad Key!");
    await page.getByLabel("Type").selectOption("event");
    await page.getByLabel("Description (optional)").fill("Seats in use");
    await page.getByRole("button", { name: "Create feature" }).click();

    const field = page.locator(".field", { has: page.locator("#featureKey") });
    const message = (await field.locator(".field-error").textContent())!;
    expect(message.length).toBeGreaterThan(0);
    expect(await page.locator("#featureKey").getAttribute("aria-describedby")).toContain("featureKey-error");
    expect(await page.locator(".field-error").count()).toBe(1); // only the field the API named
    expect(await page.getByLabel("Name").inputValue()).toBe("Seats");
    expect(await page.getByLabel("Feature key").inputValue()).toBe("Bad Key!");
    expect(await page.getByLabel("Type").inputValue()).toBe("event");
    expect(await page.getByLabel("Description (optional)").inputValue()).toBe("Seats in use");
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, "features-invalid");
    // Nothing was created.
    const api = await sessionOf(t, owner.email);
    expect((await api.read("/dashboard/features")).body.data).toEqual([]);

    await page.getByLabel("Feature key").fill("seats");
    await page.getByRole("button", { name: "Create feature" }).click();
    expect(await page.getByRole("status").textContent()).toContain("Feature Seats created");
    expect(await page.locator("tbody tr", { hasText: "seats" }).textContent()).toContain("event");
    expect((await api.read("/dashboard/features")).body.data.map((f: { featureKey: string }) => f.featureKey)).toEqual(["seats"]);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, "features");
    await page.context().close();
  },
  BROWSER_TEST_MS,
);

test(
  "switch environment: production is framed in red and named, shows its own data, and switching back restores development's",
  async () => {
    const api = await sessionOf(t, owner.email);
    expect((await api.write("POST", "/dashboard/features", { name: "Dev only", featureKey: "dev-only", featureType: "boolean" })).status).toBe(201);
    const page = await bed.newPage();
    await signInThroughPage(page, owner.email, PASSWORD);
    await page.goto("/dashboard/features");
    expect(await page.locator("body").getAttribute("class")).toBe("env-development");
    expect(await page.locator("tbody").textContent()).toContain("dev-only");

    await page.getByLabel("Environment").selectOption("production");
    await page.getByRole("button", { name: "Switch" }).click();
    await page.waitForURL("**/dashboard/features");
    expect(await page.locator("body").getAttribute("class")).toBe("env-production");
    expect(await page.locator(".env-banner").textContent()).toContain("Production");
    expect(await page.locator("h1").textContent()).toContain("Production");
    expect(await page.title()).toContain("Production");
    expect(await page.locator("main").textContent()).toContain("No features yet.");
    const frame = await page.locator("body").evaluate((b) => getComputedStyle(b).borderTopColor);
    expect(frame).toBe("rgb(179, 38, 30)");
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, "features-production");

    await page.getByLabel("Environment").selectOption("development");
    await page.getByRole("button", { name: "Switch" }).click();
    await page.waitForURL("**/dashboard/features");
    expect(await page.locator("tbody").textContent()).toContain("dev-only");
    await page.context().close();
  },
  BROWSER_TEST_MS,
);

test(
  "on a phone's width the page fits: no sideways scroll outside the tables, the header stacks",
  async () => {
    const page = await bed.newPage({ width: 375, height: 740 });
    await signInThroughPage(page, owner.email, PASSWORD);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, "api-keys-phone");
    await page.context().close();
  },
  BROWSER_TEST_MS,
);

test(
  "keyboard: the first stop skips to the page; Tab reaches the header's controls in order, each with a visible focus ring; no page asked for a blocked resource",
  async () => {
    const page = await bed.newPage();
    await signInThroughPage(page, owner.email, PASSWORD);
    const focused = [];
    for (let i = 0; i < 6; i++) {
      await page.keyboard.press("Tab");
      focused.push(
        await page.evaluate(() => {
          const el = document.activeElement as HTMLElement;
          const style = getComputedStyle(el);
          const text = el.tagName === "SELECT" ? el.getAttribute("name") : (el.textContent ?? "").trim();
          return { text, outline: style.outlineStyle, width: style.outlineWidth };
        }),
      );
    }
    expect(focused.map((f) => f.text)).toEqual(["Skip to content", "Billing", "Switch team", "environment", "Switch", "Sign out"]);
    for (const f of focused) expect({ outline: f.outline, width: f.width }).toEqual({ outline: "solid", width: "3px" });
    expect(bed.blocked).toEqual([]);
    // The first stop skips to the page: Enter on it moves the focus into main.
    await page.goto("/dashboard/api-keys");
    await page.keyboard.press("Tab");
    await page.keyboard.press("Enter");
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("main");
    await page.context().close();
  },
  BROWSER_TEST_MS,
);

test(
  "a long list pages with the API's cursor: the first page, then the next from its link",
  async () => {
    const { owner: other } = await newTeamWithOwner(t);
    const api = await sessionOf(t, other.email);
    for (let i = 0; i < 51; i++) {
      const res = await api.write("POST", "/dashboard/features", {
        name: `F ${i}`,
        featureKey: `f-${String(i).padStart(2, "0")}`,
        featureType: "boolean",
      });
      expect(res.status).toBe(201);
    }
    const page = await bed.newPage();
    await signInThroughPage(page, other.email, PASSWORD);
    await page.goto("/dashboard/features");
    expect(await page.locator("tbody tr").count()).toBe(50);
    const first = await page.locator("tbody code").allTextContents();
    await page.getByRole("link", { name: "Next page" }).click();
    const rest = await page.locator("tbody code").allTextContents();
    expect([...first, ...rest].sort()).toEqual(Array.from({ length: 51 }, (_, i) => `f-${String(i).padStart(2, "0")}`));
    expect(await page.getByRole("link", { name: "Next page" }).count()).toBe(0);
    await page.context().close();
  },
  BROWSER_TEST_MS,
);
