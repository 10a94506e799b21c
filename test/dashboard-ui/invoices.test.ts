/**
 * The invoices pages in Chromium: find an invoice (status and search) and download its PDF through the page;
 * make a draft and issue it through the pages; void after the confirmation page; a bad credit note amount
 * answered beside its field with what was typed kept; a payment's transaction linked to its explorer.
 */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { PASSWORD, browser as sessionOf, newTeamWithOwner } from "../helpers/dashboard";
import { BROWSER_TEST_MS, screenshot, seriousViolations, signInThroughPage, startDashboard } from "../helpers/dashboard-browser";
import { payInvoice } from "../helpers/invoices";

const bed = await startDashboard();
const { t } = bed;
const { teamId, owner } = await newTeamWithOwner(t);
const ownerApi = await sessionOf(t, owner.email);
const dev = { teamId, environment: "development" as const };

/** An invoice made through the API (issued unless `issue: false`). */
async function invoice(extra: Record<string, unknown> = {}) {
  const res = await ownerApi.write("POST", "/dashboard/invoices", {
    currency: "USDC",
    customerName: "Globex",
    customerEmail: "ap@globex.test",
    lineItems: [{ description: "Consulting", quantity: 2, unitAmount: "60", taxRate: "0" }],
    issue: true,
    ...extra,
  });
  expect(res.status).toBe(201);
  return res.body.data as { id: string; number: string; status: string };
}
const statusOf = async (id: string) => (await ownerApi.read(`/dashboard/invoices/${id}`)).body.data.status as string;

const signedIn = async () => {
  const page = await bed.newPage();
  await signInThroughPage(page, owner.email, PASSWORD);
  return page;
};

test(
  "find an invoice by status and search, open it (payment linked to its explorer), download its PDF and ISO 20022 through the page",
  async () => {
    const wanted = await invoice({ customerName: "Initech", customerEmail: "billing@initech.test", network: "base-sepolia" });
    await invoice({ customerEmail: "other@initech.test", issue: false });
    await invoice({ customerEmail: "someone@else.test" });
    await payInvoice(t.db.sql, t.config.chains, dev, new Date(t.clock.now()), wanted.id, 20_000_000n, "base-sepolia");
    const txHash = (await ownerApi.read(`/dashboard/invoices/${wanted.id}`)).body.data.payments[0].txHash as string;

    const page = await signedIn();
    await page.getByRole("link", { name: "Invoices", exact: true }).click();
    await page.waitForURL("**/dashboard/invoices");
    expect(await page.locator("tbody tr").count()).toBe(3);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, "invoices");

    await page.getByLabel("Status").selectOption("ISSUED");
    await page.getByLabel("Search").fill("INITECH");
    await page.getByRole("button", { name: "Search" }).click();
    await page.waitForURL("**/dashboard/invoices?status=ISSUED&q=INITECH&companyId="); // the form sends its empty company filter too
    const rows = page.locator("tbody tr");
    expect(await rows.count()).toBe(1);
    expect(await rows.textContent()).toContain("Initech");
    expect(await page.getByLabel("Search").inputValue()).toBe("INITECH"); // the filters stay as typed
    await page.getByRole("link", { name: wanted.number }).click();
    await page.waitForURL(`**/dashboard/invoices/${wanted.id}`);

    const summary = (await page.locator("#summary-title + dl").textContent())!;
    expect(summary).toContain(wanted.number);
    expect(summary).toContain("Initech");
    expect(await page.locator(".totals").textContent()).toContain("120.000000 USDC");
    expect(await page.locator(".totals").textContent()).toContain("100.000000 USDC"); // outstanding, as the API put it
    const tx = page.getByRole("link", { name: new RegExp(txHash) });
    expect(await tx.getAttribute("href")).toBe(`https://sepolia.basescan.org/tx/${txHash}`);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, "invoices-detail");

    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Download PDF" }).click()]);
    expect(download.suggestedFilename()).toBe(`${wanted.number}.pdf`);
    const bytes = readFileSync((await download.path())!);
    expect(bytes.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    const pdf = await page.request.get(`/dashboard/invoices/${wanted.id}/pdf`);
    expect(pdf.status()).toBe(200);
    expect(pdf.headers()["content-type"]).toBe("application/pdf");
    expect(pdf.headers()["content-disposition"]).toBe(`attachment; filename="${wanted.number}.pdf"`);
    expect((await pdf.body()).subarray(0, 5).toString("latin1")).toBe("%PDF-");

    const camt = await page.request.get(`/dashboard/invoices/${wanted.id}/camt054`);
    expect(camt.headers()["content-type"]).toStartWith("application/xml");
    expect(await camt.text()).toContain(txHash);
    const pain = await page.request.get(`/dashboard/invoices/${wanted.id}/pain013`);
    expect(pain.headers()["content-disposition"]).toBe(`attachment; filename="${wanted.number}.pain013.xml"`);
    expect(await pain.text()).toContain("pain.013");
    expect((await page.request.get(`/dashboard/invoices/${wanted.id}/other`)).status()).toBe(404);
    await page.context().close();
  },
  BROWSER_TEST_MS,
);

test(
  "make a draft through the pages (a bad amount answered beside its line, the rest kept), then issue it: the API's status follows",
  async () => {
    const page = await signedIn();
    await page.goto("/dashboard/invoices");
    await page.getByRole("link", { name: "New draft invoice" }).click();
    await page.waitForURL("**/dashboard/invoices/new");
    expect(await page.getByLabel("Currency").inputValue()).toBe("USDC");
    await page.getByLabel("Customer name (optional)").fill("Umbrella");
    await page.getByLabel("Customer email (optional)").fill("ap@umbrella.test");
    await page.getByLabel("Description, line 1", { exact: true }).fill("Seats");
    await page.getByLabel("Quantity, line 1", { exact: true }).fill("3");
    await page.getByLabel("Unit amount, line 1", { exact: true }).fill("12.5");
    await page.getByLabel("Tax rate (%), line 1", { exact: true }).fill("0");
    // The second line is typed in the third row: its message must land on that row.
    await page.getByLabel("Description, line 3", { exact: true }).fill("Setup");
    await page.getByLabel("Quantity, line 3", { exact: true }).fill("1");
    await page.getByLabel("Unit amount, line 3", { exact: true }).fill("ten");
    await page.getByLabel("Tax rate (%), line 3", { exact: true }).fill("0");
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, "invoices-draft-form");
    await page.getByRole("button", { name: "Save draft" }).click();

    const error = page.locator('[id="lineItems[2].unitAmount-error"]');
    expect((await error.textContent())!.length).toBeGreaterThan(0);
    expect(await page.locator(".field-error").count()).toBe(1);
    expect(await page.getByLabel("Unit amount, line 3", { exact: true }).getAttribute("aria-invalid")).toBe("true");
    expect(await page.getByLabel("Unit amount, line 3", { exact: true }).inputValue()).toBe("ten");
    expect(await page.getByLabel("Customer name (optional)").inputValue()).toBe("Umbrella");
    expect(await page.getByLabel("Unit amount, line 1", { exact: true }).inputValue()).toBe("12.5");
    const before = (await ownerApi.read("/dashboard/invoices?q=umbrella")).body.data;
    expect(before).toEqual([]);

    await page.getByLabel("Unit amount, line 3", { exact: true }).fill("10");
    await page.getByRole("button", { name: "Save draft" }).click();
    await page.waitForURL(/\/dashboard\/invoices\/in_\w+\?done=created$/);
    expect(await page.getByRole("status").textContent()).toContain("Draft created.");
    const id = new URL(page.url()).pathname.split("/").at(-1)!;
    const draft = (await ownerApi.read(`/dashboard/invoices/${id}`)).body.data;
    expect(draft).toMatchObject({ status: "DRAFT", customerName: "Umbrella", total: "47.500000" });
    expect(draft.lineItems.map((l: { description: string }) => l.description)).toEqual(["Seats", "Setup"]);
    expect(await page.locator(".totals").textContent()).toContain("47.500000 USDC");

    // Edit: the form comes back filled with the draft as the API has it.
    await page.getByRole("link", { name: "Edit draft" }).click();
    expect(await page.getByLabel("Description, line 2", { exact: true }).inputValue()).toBe("Setup");
    await page.getByLabel("Quantity, line 2", { exact: true }).fill("2");
    await page.getByRole("button", { name: "Save draft" }).click();
    await page.waitForURL(`**/dashboard/invoices/${id}?done=saved`);
    expect((await ownerApi.read(`/dashboard/invoices/${id}`)).body.data.total).toBe("57.500000");

    await page.getByRole("button", { name: "Issue invoice" }).click();
    await page.waitForURL(`**/dashboard/invoices/${id}?done=issued`);
    expect(await page.getByRole("status").textContent()).toContain("Invoice issued.");
    const issued = (await ownerApi.read(`/dashboard/invoices/${id}`)).body.data;
    expect(issued.status).toBe("ISSUED");
    expect(issued.number).toMatch(/^INV-\d{6}$/);
    expect(await page.locator("h1").textContent()).toContain(issued.number);
    expect(await page.getByRole("button", { name: "Issue invoice" }).count()).toBe(0);

    // Sending again: this service has no SMTP, and the API says so above the send form; the address typed stays.
    await page.getByLabel("To (optional, email only)").fill("accounts@umbrella.test");
    await page.getByRole("button", { name: "Send invoice" }).click();
    expect(await page.locator("form[action$='/send'] .form-error").textContent()).toContain("SMTP_URL");
    expect(await page.getByLabel("To (optional, email only)").inputValue()).toBe("accounts@umbrella.test");
    expect((await ownerApi.read(`/dashboard/invoices/${id}`)).body.data.deliveries).toEqual([]);
    await page.context().close();
  },
  BROWSER_TEST_MS,
);

test(
  "void after the confirmation page; a bad credit note amount is answered beside its field with what was typed kept",
  async () => {
    const toVoid = await invoice({ customerName: "Hooli" });
    const toCredit = await invoice({ customerName: "Pied Piper" });
    const page = await signedIn();

    await page.goto(`/dashboard/invoices/${toVoid.id}`);
    await page.getByRole("link", { name: "Void invoice" }).click();
    await page.waitForURL(`**/dashboard/invoices/${toVoid.id}/void`);
    expect(await page.locator("main").textContent()).toContain("cannot be undone");
    expect(await statusOf(toVoid.id)).toBe("ISSUED"); // the confirmation page changes nothing
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, "invoices-void");
    await page.getByRole("button", { name: "Void invoice" }).click();
    await page.waitForURL(`**/dashboard/invoices/${toVoid.id}?done=voided`);
    expect(await page.getByRole("status").textContent()).toContain("Invoice voided.");
    expect(await statusOf(toVoid.id)).toBe("VOID");
    expect(await page.getByRole("link", { name: "Void invoice" }).count()).toBe(0);

    await page.goto(`/dashboard/invoices/${toCredit.id}`);
    await page.getByRole("link", { name: "Create a credit note" }).click();
    await page.getByLabel("Reason").fill("Outage on March 3");
    await page.getByLabel("Amount (USDC)").fill("-5");
    await page.getByLabel("Memo (optional)").fill("Sorry");
    await page.getByRole("button", { name: "Create credit note" }).click();
    const message = (await page.locator("#amount-error").textContent())!;
    expect(message.length).toBeGreaterThan(0);
    expect(await page.locator(".field-error").count()).toBe(1);
    expect(await page.getByLabel("Amount (USDC)").inputValue()).toBe("-5");
    expect(await page.getByLabel("Reason").inputValue()).toBe("Outage on March 3");
    expect(await page.getByLabel("Memo (optional)").inputValue()).toBe("Sorry");
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, "invoices-credit-note-invalid");
    expect((await ownerApi.read(`/invoices/${toCredit.id}/credit-notes`)).body.creditNotes).toEqual([]);

    await page.getByLabel("Amount (USDC)").fill("20");
    await page.getByRole("button", { name: "Create credit note" }).click();
    await page.waitForURL(`**/dashboard/invoices/${toCredit.id}?done=credited`);
    const notes = (await ownerApi.read(`/invoices/${toCredit.id}/credit-notes`)).body.creditNotes;
    expect(notes).toHaveLength(1);
    expect(await page.locator("#credit-notes-title + div tbody").textContent()).toContain(notes[0].number);
    expect(await page.locator(".totals").textContent()).toContain("100.000000 USDC");

    // A payment proof the API cannot read: its message beside the field, the hash kept, nothing paid.
    await page.getByRole("link", { name: "Record a payment proof" }).click();
    await page.getByLabel("Transaction hash").fill("0xnot-a-hash");
    await page.getByLabel("Network (optional)").fill("base-sepolia");
    await page.getByRole("button", { name: "Submit payment proof" }).click();
    expect((await page.locator("#txHash-error").textContent())!.length).toBeGreaterThan(0);
    expect(await page.getByLabel("Transaction hash").inputValue()).toBe("0xnot-a-hash");
    expect((await ownerApi.read(`/dashboard/invoices/${toCredit.id}`)).body.data.payments).toEqual([]);
    await page.context().close();
  },
  BROWSER_TEST_MS,
);

test(
  "a refund the API refuses before any chain is asked: its message beside the amount, everything typed kept, nothing recorded",
  async () => {
    const paid = await invoice({ customerName: "Vandelay", network: "base-sepolia" });
    await payInvoice(t.db.sql, t.config.chains, dev, new Date(t.clock.now()), paid.id, 120_000_000n, "base-sepolia");
    const page = await signedIn();
    await page.goto(`/dashboard/invoices/${paid.id}`);
    expect(await page.locator(".status").first().textContent()).toBe("PAID");
    await page.getByRole("link", { name: "Record a refund" }).click();
    await page.getByLabel("Amount (USDC)").fill("ten");
    await page.getByLabel("Reason").fill("Duplicate charge");
    await page.getByLabel("Refund transaction hash").fill(`0x${"cd".repeat(32)}`);
    await page.getByLabel("Recipient wallet").fill(`0x${"ab".repeat(20)}`);
    await page.getByRole("button", { name: "Record refund" }).click();
    expect((await page.locator("#amount-error").textContent())!.length).toBeGreaterThan(0);
    expect(await page.getByLabel("Amount (USDC)").inputValue()).toBe("ten");
    expect(await page.getByLabel("Recipient wallet").inputValue()).toBe(`0x${"ab".repeat(20)}`);
    expect((await ownerApi.read(`/dashboard/invoices/${paid.id}`)).body.data.refunds).toEqual([]);
    await page.context().close();
  },
  BROWSER_TEST_MS,
);
