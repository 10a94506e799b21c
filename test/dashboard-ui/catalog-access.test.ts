/**
 * The catalog pages (plans, a plan, coupons, a coupon, credit packs, a feature, the confirmation pages) for a
 * read-only member and against hostile values: a catalog:read member sees no write control and forged posts change
 * nothing; names and descriptions made of markup print as text and run nothing.
 */
import { expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { PASSWORD, browser as sessionOf, newOperator, newTeamWithOwner } from "../helpers/dashboard";
import { BROWSER_TEST_MS, screenshot, signInThroughPage, startDashboard } from "../helpers/dashboard-browser";

const IMG = "<img src=x onerror=window.__x=1>";
const SCRIPT = '"><script>window.__x=1</script>';

const bed = await startDashboard();
const { t } = bed;
const { teamId, owner } = await newTeamWithOwner(t);
const reader = await newOperator(t, teamId, ["catalog:read"]);
const ownerApi = await sessionOf(t, owner.email);
const created = async (method: string, path: string, body: unknown) => {
  const res = await ownerApi.write(method, path, body);
  expect(res.status).toBeLessThan(300);
  return res.body.data;
};
await created("POST", "/dashboard/features", { name: IMG, featureKey: "hostile", featureType: "boolean", description: SCRIPT });
const plan = await created("POST", "/dashboard/plans", {
  name: IMG,
  description: SCRIPT,
  tier: SCRIPT,
  prices: [{ billingPeriod: "monthly", amount: "9", currency: "USDC" }],
});
await created("PUT", `/dashboard/plans/${plan.id}/entitlements/hostile`, { kind: "boolean" });
const coupon = await created("POST", "/dashboard/coupons", { code: "HOSTILE", name: IMG, percentOff: "10", duration: "once", planIds: [plan.id] });
const pack = await created("POST", "/dashboard/credit-packs", {
  key: "hostile",
  name: SCRIPT,
  credits: "10",
  prices: [{ network: "base-sepolia", token: "USDC", amount: "1000" }],
});

/** Every page of the section, with what it must print as text. */
const PAGES = [
  "/dashboard/plans",
  `/dashboard/plans/${plan.id}`,
  `/dashboard/plans/${plan.id}/remove`,
  `/dashboard/plans/${plan.id}/entitlements/hostile/remove`,
  "/dashboard/coupons",
  `/dashboard/coupons/${coupon.id}`,
  `/dashboard/coupons/${coupon.id}/archive`,
  "/dashboard/credit-packs",
  `/dashboard/credit-packs/${pack.id}/archive`,
  "/dashboard/features/hostile",
  "/dashboard/features/hostile/remove",
];

/** A form post made by script from the page (with the page's cookie), as a forged request would be. */
const post = (page: Page, path: string, fields: Record<string, string>) =>
  page.evaluate(
    async ({ path, fields }) => {
      const res = await fetch(path, { method: "POST", body: new URLSearchParams(fields), redirect: "manual" });
      return res.status;
    },
    { path, fields },
  );

test(
  "hostile names and descriptions print as text on every catalog page: no element made, no script run",
  async () => {
    const page = await bed.newPage();
    await signInThroughPage(page, owner.email, PASSWORD);
    for (const path of PAGES) {
      const res = await page.goto(path);
      expect({ path, status: res?.status() }).toEqual({ path, status: 200 });
      const text = (await page.locator("main").textContent()) ?? "";
      expect({ path, printed: text.includes(IMG) || text.includes(SCRIPT) }).toEqual({ path, printed: true });
      expect({ path, made: await page.locator("main img, main script").count() }).toEqual({ path, made: 0 });
      expect({ path, ran: await page.evaluate(() => (window as unknown as { __x?: number }).__x) }).toEqual({ path, ran: undefined });
    }
    await page.goto(`/dashboard/plans/${plan.id}`);
    await screenshot(page, "plans-hostile");
    expect(bed.blocked).toEqual([]);
    await page.context().close();
  },
  BROWSER_TEST_MS,
);

test(
  "a catalog:read member sees every catalog page and no write control; confirmation pages refuse it",
  async () => {
    const page = await bed.newPage();
    await signInThroughPage(page, reader.email, PASSWORD);
    for (const path of PAGES.filter((p) => !p.endsWith("/remove") && !p.endsWith("/archive"))) {
      expect({ path, status: (await page.goto(path))?.status() }).toEqual({ path, status: 200 });
      expect({ path, forms: await page.locator('main form[method="post"]').count() }).toEqual({ path, forms: 0 });
      expect({ path, links: await page.locator("main a.danger-link").count() }).toEqual({ path, links: 0 });
      expect(await page.locator("main").textContent()).toContain("Your role lets you read");
    }
    await page.goto(`/dashboard/plans/${plan.id}`);
    await screenshot(page, "plans-read-only");
    for (const path of PAGES.filter((p) => p.endsWith("/remove") || p.endsWith("/archive"))) {
      expect({ path, status: (await page.goto(path))?.status() }).toEqual({ path, status: 403 });
      expect(await page.locator('main form[method="post"]').count()).toBe(0);
    }
    await page.context().close();
  },
  BROWSER_TEST_MS,
);

test(
  "forged posts change nothing: a catalog:read member's (with its CSRF token), and the owner's without a token",
  async () => {
    const before = {
      plan: (await ownerApi.read(`/dashboard/plans/${plan.id}`)).body.data,
      coupons: (await ownerApi.read("/dashboard/coupons")).body.data,
      packs: (await ownerApi.read("/dashboard/credit-packs")).body.data,
      feature: (await ownerApi.read("/dashboard/features/hostile")).body.data,
    };
    const readerPage = await bed.newPage();
    await signInThroughPage(readerPage, reader.email, PASSWORD);
    await readerPage.goto("/dashboard/plans");
    const csrf = (await readerPage.locator('input[name="csrf"]').first().getAttribute("value"))!;
    const forged: [string, Record<string, string>][] = [
      ["/dashboard/plans", { name: "Forged", planKind: "plan" }],
      [`/dashboard/plans/${plan.id}/edit`, { name: "Forged", planKind: "plan", tier: "x", trialDays: "0" }],
      [`/dashboard/plans/${plan.id}/prices`, { priceBillingPeriod: "yearly", priceAmount: "1", priceCurrency: "USDC" }],
      [`/dashboard/plans/${plan.id}/entitlements/hostile/remove`, {}],
      [`/dashboard/plans/${plan.id}/remove`, {}],
      [`/dashboard/coupons/${coupon.id}/archive`, {}],
      [`/dashboard/coupons/${coupon.id}/edit`, { name: "Forged", duration: "once", percentOff: "10" }],
      ["/dashboard/credit-packs", { key: "forged", credits: "1", network: "base-sepolia", token: "USDC", amount: "1" }],
      [`/dashboard/credit-packs/${pack.id}/archive`, {}],
      ["/dashboard/features/hostile/edit", { name: "Forged", featureType: "boolean" }],
      ["/dashboard/features/hostile/remove", {}],
    ];
    for (const [path, fields] of forged) expect({ path, status: await post(readerPage, path, { ...fields, csrf }) }).toEqual({ path, status: 403 });

    const ownerPage = await bed.newPage();
    await signInThroughPage(ownerPage, owner.email, PASSWORD);
    for (const [path, fields] of forged) expect({ path, status: await post(ownerPage, path, fields) }).toEqual({ path, status: 403 });

    expect((await ownerApi.read(`/dashboard/plans/${plan.id}`)).body.data).toEqual(before.plan);
    expect((await ownerApi.read("/dashboard/coupons")).body.data).toEqual(before.coupons);
    expect((await ownerApi.read("/dashboard/credit-packs")).body.data).toEqual(before.packs);
    expect((await ownerApi.read("/dashboard/features/hostile")).body.data).toEqual(before.feature);
    await readerPage.context().close();
    await ownerPage.context().close();
  },
  BROWSER_TEST_MS,
);
