/**
 * Hostile values stored through the API print as text on every page and run nothing. The pages' CSP would stop
 * an inline script anyway, so the test looks at the DOM too: no element was made from a value, and the value
 * is on the screen as the characters it is.
 */
import { expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { createTeam } from "../../src/modules/teams/team";
import { PASSWORD, browser as sessionOf, newOperator } from "../helpers/dashboard";
import { BROWSER_TEST_MS, screenshot, seriousViolations, signInThroughPage, startDashboard } from "../helpers/dashboard-browser";

const IMG = "<img src=x onerror=window.__pwned=1>";
const SCRIPT = '"><script>window.__pwned=2</script>';

const bed = await startDashboard();
const { t } = bed;
const team = await createTeam(t.db.sql, `Team ${IMG}`);
const owner = await newOperator(t, team.id, ["owner"]);
const api = await sessionOf(t, owner.email);
const stored = [
  await api.write("POST", "/dashboard/api-keys", { name: IMG, type: "secret", description: SCRIPT }),
  await api.write("POST", "/dashboard/api-keys", { name: SCRIPT, type: "secret" }),
  await api.write("POST", "/dashboard/features", { name: IMG, featureKey: "img", featureType: "boolean", description: SCRIPT }),
  await api.write("POST", "/dashboard/features", { name: SCRIPT, featureKey: "script", featureType: "boolean" }),
];

/** Nothing ran, nothing was made from a value, and each value is there as text. */
async function expectInert(page: Page, texts: string[]) {
  expect(await page.evaluate(() => (window as { __pwned?: unknown }).__pwned)).toBeUndefined();
  expect(await page.locator("img").count()).toBe(0);
  expect(await page.locator("script").evaluateAll((scripts) => scripts.map((s) => s.getAttribute("src")))).toEqual([
    "/dashboard/assets/dashboard.js",
  ]);
  const shown = (await page.locator("body").innerText()).replace(/\s+/g, " ");
  for (const text of texts) expect(shown).toContain(text);
}

test("the values were stored as given", () => {
  expect(stored.map((r) => r.status)).toEqual([201, 201, 201, 201]);
});

test(
  "keys, a new key's notice, the revoke confirmation and features print hostile names as text",
  async () => {
    const page = await bed.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await signInThroughPage(page, owner.email, PASSWORD);
    await expectInert(page, [IMG, SCRIPT, `Team ${IMG}`]);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, "hostile-values");

    await page.getByLabel("Name").fill(IMG);
    await page.getByRole("button", { name: "Create key" }).click();
    await expectInert(page, [`New key: ${IMG}`]);

    await page.goto(`/dashboard/api-keys/${stored[1]!.body.data.id}/revoke`);
    await expectInert(page, [`Revoke ${SCRIPT}`]);

    await page.goto("/dashboard/features");
    await expectInert(page, [IMG, SCRIPT]);
    // A refused form keeps what was typed, hostile or not, as the field's value.
    await page.getByLabel("Name").fill(SCRIPT);
    await page.getByLabel("Feature key").fill(IMG);
    await page.getByRole("button", { name: "Create feature" }).click();
    await expectInert(page, []);
    expect(await page.getByLabel("Feature key").inputValue()).toBe(IMG);
    expect(await page.getByLabel("Name").inputValue()).toBe(SCRIPT);
    expect(errors).toEqual([]);
    // Nothing even tried to run: had a value become markup, the CSP would have blocked (and reported) it.
    expect(bed.blocked).toEqual([]);
    await page.context().close();
  },
  BROWSER_TEST_MS,
);

test(
  "the sign-in page keeps a hostile email typed as the field's value, inert",
  async () => {
    const page = await bed.newPage();
    await page.goto("/dashboard/sign-in");
    // type=email would refuse it in the browser: the post is what another client could send.
    await page.locator("#email").evaluate((el) => el.setAttribute("type", "text"));
    await page.getByLabel("Email").fill(SCRIPT);
    await page.getByLabel("Password").fill("whatever it is here");
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await expectInert(page, []);
    expect(await page.getByLabel("Email").inputValue()).toBe(SCRIPT);
    await page.context().close();
  },
  BROWSER_TEST_MS,
);
