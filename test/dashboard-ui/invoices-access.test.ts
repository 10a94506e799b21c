/**
 * The invoices pages for a read-only member (billing:read): the lists, the detail and the downloads, no write
 * control, and forged posts refused with nothing changed. Hostile customer names and line descriptions stored
 * through the API print as text on every invoice page.
 */
import { expect, test } from "bun:test";
import { PASSWORD, browser as sessionOf, newOperator, newTeamWithOwner } from "../helpers/dashboard";
import { BROWSER_TEST_MS, screenshot, seriousViolations, signInThroughPage, startDashboard } from "../helpers/dashboard-browser";

const bed = await startDashboard();
const { t } = bed;
const { teamId, owner } = await newTeamWithOwner(t);
const reader = await newOperator(t, teamId, ["billing:read"]);
const ownerApi = await sessionOf(t, owner.email);

const IMG = "<img src=x onerror=window.__x=1>";
const SCRIPT = '"><script>window.__x=1</script>';

async function invoice(extra: Record<string, unknown> = {}) {
  const res = await ownerApi.write("POST", "/dashboard/invoices", {
    currency: "USDC",
    customerName: "Globex",
    customerEmail: "ap@globex.test",
    lineItems: [{ description: "Consulting", quantity: 1, unitAmount: "50", taxRate: "0" }],
    issue: true,
    ...extra,
  });
  expect(res.status).toBe(201);
  return res.body.data as { id: string; number: string };
}
const issued = await invoice();
const draft = await invoice({ issue: false });
const hostile = await invoice({
  customerName: IMG,
  description: SCRIPT,
  lineItems: [
    { description: IMG, quantity: 1, unitAmount: "10", taxRate: "0" },
    { description: SCRIPT, quantity: 1, unitAmount: "5", taxRate: "0" },
  ],
});
await ownerApi.write("POST", `/dashboard/invoices/${hostile.id}/credit-notes`, { reason: SCRIPT, amount: "1", memo: IMG });
const hostileDraft = await invoice({
  issue: false,
  customerName: SCRIPT,
  lineItems: [{ description: IMG, quantity: 1, unitAmount: "1", taxRate: "0" }],
});

/** A form post made by script from the page (with the page's cookie), as a forged request would be. */
const post = (page: import("playwright-core").Page, path: string, fields: Record<string, string>) =>
  page.evaluate(
    async ({ path, fields }) => {
      const res = await fetch(path, { method: "POST", body: new URLSearchParams(fields), redirect: "manual" });
      return { status: res.status, text: await res.text() };
    },
    { path, fields },
  );

const snapshot = async () => {
  const list = (await ownerApi.read("/dashboard/invoices")).body.data as { id: string; status: string; total: string }[];
  const notes = (await ownerApi.read(`/invoices/${issued.id}/credit-notes`)).body.creditNotes.length as number;
  return { list: list.map((i) => [i.id, i.status, i.total]), notes };
};

test(
  "a read-only member (billing:read) reads the list, the detail and the PDF, and sees no write control",
  async () => {
    const page = await bed.newPage();
    await signInThroughPage(page, reader.email, PASSWORD);
    await page.goto("/dashboard/invoices");
    expect(await page.locator("tbody tr").count()).toBe(4);
    expect(await page.getByRole("link", { name: "New draft invoice" }).count()).toBe(0);
    expect(await page.locator("main form[method=post]").count()).toBe(0);
    for (const id of [issued.id, draft.id]) {
      await page.goto(`/dashboard/invoices/${id}`);
      expect(await page.locator("main form[method=post]").count()).toBe(0);
      expect(await page.locator("#actions-title").count()).toBe(0);
      for (const name of ["Edit draft", "Void invoice", "Create a credit note", "Record a payment proof", "Record a refund"])
        expect(await page.getByRole("link", { name }).count()).toBe(0);
    }
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, "invoices-read-only");
    const pdf = await page.request.get(`/dashboard/invoices/${issued.id}/pdf`);
    expect(pdf.headers()["content-type"]).toBe("application/pdf");
    // The form pages refuse to act for this role: their posts are the API's 403.
    await page.context().close();
  },
  BROWSER_TEST_MS,
);

test(
  "forged posts are refused and change nothing: a read-only role's with its token, an owner's without the token or with a wrong one",
  async () => {
    const before = await snapshot();
    const readerPage = await bed.newPage();
    await signInThroughPage(readerPage, reader.email, PASSWORD);
    const readerCsrf = (await readerPage.locator('input[name="csrf"]').first().getAttribute("value"))!;
    const asReader = [
      await post(readerPage, `/dashboard/invoices/${issued.id}/void`, { csrf: readerCsrf }),
      await post(readerPage, `/dashboard/invoices/${draft.id}/issue`, { csrf: readerCsrf }),
      await post(readerPage, `/dashboard/invoices/${issued.id}/credit-notes`, { csrf: readerCsrf, reason: "x", amount: "5" }),
      await post(readerPage, "/dashboard/invoices", { csrf: readerCsrf, currency: "USDC", "lineItems[0].description": "x" }),
    ];
    for (const res of asReader) {
      expect(res.status).toBe(403);
      expect(res.text).toContain("billing:write");
    }

    const ownerPage = await bed.newPage();
    await signInThroughPage(ownerPage, owner.email, PASSWORD);
    const csrf = (await ownerPage.locator('input[name="csrf"]').first().getAttribute("value"))!;
    const none = await post(ownerPage, `/dashboard/invoices/${issued.id}/void`, {});
    expect(none.status).toBe(403);
    expect(none.text).toContain("CSRF");
    const wrong = await post(ownerPage, `/dashboard/invoices/${issued.id}/credit-notes`, {
      csrf: `${csrf.slice(0, -2)}xx`,
      reason: "x",
      amount: "5",
    });
    expect(wrong.status).toBe(403);
    const crossSite = await fetch(`${bed.base}/dashboard/invoices/${issued.id}/void`, {
      method: "POST",
      headers: { origin: "https://evil.example", "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ csrf }),
      redirect: "manual",
    });
    expect(crossSite.status).toBe(403);

    expect(await snapshot()).toEqual(before);
    await readerPage.context().close();
    await ownerPage.context().close();
  },
  BROWSER_TEST_MS,
);

test(
  "hostile customer names, descriptions and line descriptions print as text on the list, detail, draft form and action pages",
  async () => {
    const page = await bed.newPage();
    await signInThroughPage(page, owner.email, PASSWORD);
    const pages = [
      "/dashboard/invoices",
      `/dashboard/invoices/${hostile.id}`,
      `/dashboard/invoices/${hostile.id}/void`,
      `/dashboard/invoices/${hostile.id}/credit-notes/new`,
      `/dashboard/invoices/${hostile.id}/payments/new`,
      `/dashboard/invoices/${hostileDraft.id}`,
      `/dashboard/invoices/${hostileDraft.id}/edit`,
    ];
    for (const path of pages) {
      await page.goto(path);
      const text = (await page.locator("main").textContent())!;
      if (!path.endsWith("/edit")) expect(text.includes(IMG) || text.includes(SCRIPT)).toBe(true);
      expect(await page.locator("main img").count()).toBe(0);
      expect(await page.locator("main script").count()).toBe(0);
      expect(await page.evaluate(() => (window as { __x?: unknown }).__x)).toBeUndefined();
    }
    // The edit form keeps them as values, not markup.
    expect(await page.getByLabel("Customer name (optional)").inputValue()).toBe(SCRIPT);
    expect(await page.getByLabel("Description, line 1", { exact: true }).inputValue()).toBe(IMG);
    await page.goto(`/dashboard/invoices/${hostile.id}`);
    const detail = (await page.locator("main").textContent())!;
    for (const value of [IMG, SCRIPT]) expect(detail).toContain(value);
    expect(bed.blocked).toEqual([]);
    await screenshot(page, "invoices-hostile");
    await page.context().close();

    // On a phone's width the detail fits: no sideways scroll outside the tables.
    const phone = await bed.newPage({ width: 375, height: 740 });
    await signInThroughPage(phone, owner.email, PASSWORD);
    await phone.goto(`/dashboard/invoices/${hostile.id}`);
    expect(await phone.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);
    await phone.context().close();
  },
  BROWSER_TEST_MS,
);
