/**
 * Subscriptions and mandates in Chromium, over a subscription activated on anvil as the chain tests activate one
 * (test/helpers/chains/anvil-subscriptions.ts: the payer's signed consent, the first period pulled): the list and
 * the detail show the API's status and period; cancel at period end and resume through their confirmation pages;
 * a plan change previewed (the page's quote is the API's) and applied with that quote; the mandate revoked; an
 * immediate cancel, then a second one refused with the API's message. A read-only member sees no action and a
 * forged post changes nothing; hostile company and plan names print as text.
 */
import { afterAll, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { anvilSubscriptionBed } from "../helpers/chains/anvil-subscriptions";
import { PASSWORD, browser as sessionOf, newOperator, newTeamWithOwner } from "../helpers/dashboard";
import { BROWSER_TEST_MS, screenshot, seriousViolations, signInThroughPage, startDashboard } from "../helpers/dashboard-browser";
import { monthly } from "../helpers/subscriptions";

const HOSTILE_COMPANY = "<img src=x onerror=window.__x=1> Acme";
const HOSTILE_PLAN = '"><script>window.__x=1</script> Basic';

// Room in the payer's window for the first period and an upgrade's proration on top of it.
const chain = await anvilSubscriptionBed({ terms: { periodAllowance: 100_000_000n, cap: 1_000_000_000n } });
afterAll(() => chain.stop());
const bed = await startDashboard({ CHAIN_REGISTRY_FILE: chain.registryFile, SUBSCRIPTION_EVM_OPERATOR_KEY: chain.operatorKey });
const { t } = bed;
// The service's clock is the chain's (periods and the contract's windows agree), set before any session is made.
t.clock.set((await chain.now()) * 1000);
const { teamId, owner } = await newTeamWithOwner(t);
const reader = await newOperator(t, teamId, ["billing:read"]);
const api = await sessionOf(t, owner.email);
expect((await api.write("PUT", "/dashboard/settlement-wallets/anvil", { wallet: chain.payee })).status).toBe(200);
const basic = (await api.write("POST", "/dashboard/plans", { name: HOSTILE_PLAN, prices: monthly("10"), onchainPlanIds: { anvil: "basic" } })).body
  .data;
const pro = (await api.write("POST", "/dashboard/plans", { name: "Pro", prices: monthly("30"), onchainPlanIds: { anvil: "pro" } })).body.data;
const activated = await api.write("POST", "/subscriptions/activate", {
  planId: "basic",
  paymentAccount: chain.payer.address,
  company: { id: "acme", name: HOSTILE_COMPANY },
  payerConsent: (await chain.consent(chain.payer, "acme")).body,
});
expect(activated.status).toBe(200);
const subscriptionId = (await api.read("/dashboard/subscriptions")).body.data[0].id as string;
const detailPath = `/dashboard/subscriptions/${subscriptionId}`;
// One owner's browser for the tests that act as the owner (a sign-in each would be most of their time).
const page = await bed.newPage();
await signInThroughPage(page, owner.email, PASSWORD);
afterAll(() =>
  page
    .context()
    .close()
    .catch(() => {}),
);
const subscription = async () => (await api.read(`/dashboard/subscriptions/${subscriptionId}`)).body.data;

/** Nothing hostile ran or became an element on this page. */
async function inert(page: Page) {
  expect(await page.evaluate(() => (window as { __x?: unknown }).__x)).toBeUndefined();
  expect(await page.locator("main img, main script").count()).toBe(0);
  expect(bed.blocked).toEqual([]);
}

/** A form post made by script from the page (the page's cookie), as a forged request would be. */
const post = (page: Page, path: string, fields: Record<string, string>) =>
  page.evaluate(
    async ({ path, fields }) => {
      const res = await fetch(path, { method: "POST", body: new URLSearchParams(fields), redirect: "manual" });
      return { status: res.status, text: await res.text() };
    },
    { path, fields },
  );

test(
  "the list and the detail show the API's status, period, renewal, mandate and charges; hostile names print as text",
  async () => {
    const s = await subscription();
    await page.getByRole("link", { name: "Subscriptions" }).click();
    await page.waitForURL("**/dashboard/subscriptions");
    const cells = await page.locator("tbody tr", { hasText: "Acme" }).locator("td").allTextContents();
    expect(cells).toEqual([
      HOSTILE_COMPANY,
      HOSTILE_PLAN,
      "anvil · USDC",
      "ACTIVE",
      `${s.currentPeriodStart.slice(0, 16).replace("T", " ")} UTC to ${s.currentPeriodEnd.slice(0, 16).replace("T", " ")} UTC`,
      `${s.nextAttemptAt.slice(0, 16).replace("T", " ")} UTC`,
      "None",
    ]);
    await inert(page);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, "subscriptions");

    // The status filter is the API's.
    await page.getByLabel("Status").selectOption("CANCELED");
    await page.getByRole("button", { name: "Filter" }).click();
    expect(await page.locator("main").textContent()).toContain("No subscriptions here.");
    await page.getByLabel("Status").selectOption("ACTIVE");
    await page.getByLabel("Company id").fill("nobody");
    await page.getByRole("button", { name: "Filter" }).click();
    expect(await page.locator("main").textContent()).toContain("No subscriptions here.");
    await page.getByLabel("Company id").fill("acme");
    await page.getByRole("button", { name: "Filter" }).click();
    await page.waitForURL("**/dashboard/subscriptions?status=ACTIVE&companyId=acme");
    await page.getByRole("link", { name: HOSTILE_COMPANY }).click();
    await page.waitForURL(`**${detailPath}`);
    const facts = await page.locator("#state-title + dl").textContent();
    expect(facts).toContain("ACTIVE");
    expect(facts).toContain(`${s.currentPeriodStart.slice(0, 16).replace("T", " ")} UTC to`);
    const mandate = (await api.read(`/mandates/${s.mandateId}/status`)).body;
    const mandateFacts = await page.locator("#mandate-title + dl").textContent();
    expect(mandateFacts).toContain(`${mandate.remainingAmount} token units`);
    expect(mandateFacts).toContain(mandate.status);
    // The activation's pull, with its invoice linked to the invoice's page.
    const activation = s.operations[0];
    expect(await page.locator("tbody tr").first().textContent()).toContain(activation.amount);
    expect(await page.getByRole("link", { name: activation.invoiceId }).getAttribute("href")).toBe(`/dashboard/invoices/${activation.invoiceId}`);
    expect(await page.locator("h1").textContent()).toContain(HOSTILE_COMPANY);
    await inert(page);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, "subscriptions-detail");
  },
  BROWSER_TEST_MS,
);

test(
  "a read-only member (billing:read) sees no action, and forged posts (no CSRF token; the role) change nothing",
  async () => {
    const readerPage = await bed.newPage();
    await signInThroughPage(readerPage, reader.email, PASSWORD);
    await readerPage.goto(detailPath);
    expect(await readerPage.locator("#state-title + dl").textContent()).toContain("ACTIVE");
    expect(await readerPage.locator("main form").count()).toBe(0);
    expect(await readerPage.getByRole("link", { name: /Cancel|Resume|Revoke|Change plan/ }).count()).toBe(0);
    expect(await readerPage.locator("main").textContent()).toContain("not change it");

    const csrf = (await readerPage.locator('input[name="csrf"]').first().getAttribute("value"))!;
    // The owner's browser, made to post without the session's CSRF token (a forged form): refused by the API.
    const forged = await post(page, `${detailPath}/cancel`, { when: "now" });
    expect(forged.status).toBe(403);
    expect(forged.text).toContain("CSRF");
    const byRole = await post(readerPage, `${detailPath}/cancel`, { when: "now", csrf });
    expect(byRole.status).toBe(403);
    expect(byRole.text).toContain("billing:write");
    const revoke = await post(readerPage, `${detailPath}/revoke-mandate`, { csrf });
    expect(revoke.status).toBe(403);
    const apply = await post(readerPage, `${detailPath}/plan`, { planId: pro.id, csrf });
    expect(apply.status).toBe(403);
    const s = await subscription();
    expect(s).toMatchObject({ status: "ACTIVE", cancelAtPeriodEnd: false, planId: basic.id });
    expect(s.mandate.status).toBe("ACTIVE");
    await readerPage.context().close();
  },
  BROWSER_TEST_MS,
);

test(
  "cancel at period end through the confirmation page, then resume: the API's state changes each time",
  async () => {
    await page.goto(detailPath);
    await page.getByRole("link", { name: "Cancel subscription" }).click();
    await page.waitForURL(`**${detailPath}/cancel`);
    expect(await page.getByLabel(/At the end of the current period/).isChecked()).toBe(true);
    await inert(page);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, "subscriptions-cancel");
    await page.getByLabel("Reason (optional, for the audit log and the webhook)").fill("Asked by the customer");
    await page.getByRole("button", { name: "Cancel subscription" }).click();
    await page.waitForURL(`**${detailPath}?done=canceled-at-period-end`);
    expect(await page.getByRole("status").textContent()).toContain("will cancel at the end of its period");
    expect(await subscription()).toMatchObject({ status: "ACTIVE", cancelAtPeriodEnd: true });
    expect(await page.locator("#state-title + dl").textContent()).toContain("Cancels at period endYes");

    await page.getByRole("link", { name: "Resume subscription" }).click();
    await page.waitForURL(`**${detailPath}/resume`);
    await page.getByRole("button", { name: "Resume subscription" }).click();
    await page.waitForURL(`**${detailPath}?done=resumed`);
    expect(await subscription()).toMatchObject({ status: "ACTIVE", cancelAtPeriodEnd: false });
    expect(await page.getByRole("link", { name: "Resume subscription" }).count()).toBe(0);
  },
  BROWSER_TEST_MS,
);

test(
  "a plan change: the quote shown is the API's preview, and applying it charges exactly it and moves the plan",
  async () => {
    await page.goto(detailPath);
    await page.getByRole("link", { name: "Change plan" }).click();
    await page.waitForURL(`**${detailPath}/plan`);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, "subscriptions-plan");
    await page.getByLabel("New plan").selectOption(pro.id);
    await page.getByRole("button", { name: "Preview the change" }).click();

    // The API's preview at the same instant (the test clock stands still): the same amounts and lines.
    const preview = (
      await api.write("POST", "/dashboard/companies/acme/plan/preview", { planId: pro.id, billingPeriod: "monthly", effective: "now" })
    ).body.data;
    expect(preview).toMatchObject({ kind: "upgrade", changed: true, credit: "10.000000", charge: "30.000000", net: "20.000000" });
    expect(await page.locator("#amount-due").textContent()).toBe(`${preview.invoice.total} USDC`);
    expect(await page.locator("#quote-credit").textContent()).toBe(`${preview.credit} USDC`);
    expect(await page.locator("#quote-charge").textContent()).toBe(`${preview.charge} USDC`);
    expect(await page.locator("#quote-net").textContent()).toBe(`${preview.net} USDC`);
    expect(await page.locator("#quote-total").textContent()).toBe(preview.invoice.total);
    const lines = await page
      .locator(".quote-lines tbody tr")
      .evaluateAll((rows) => rows.map((r) => Array.from(r.querySelectorAll("td"), (c) => c.textContent)));
    expect(lines).toEqual(
      preview.invoice.lineItems.map((l: Record<string, unknown>) =>
        [l.description, String(l.quantity), l.unitAmount, l.taxRate, l.lineSubtotal, l.lineTax, l.lineTotal].map(String),
      ),
    );
    const quoteId = (await page.locator("#quote-id").textContent())!;
    expect(quoteId).toMatch(/^quo_/);
    expect(await page.locator('input[name="quoteId"]').getAttribute("value")).toBe(quoteId);
    await inert(page);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, "subscriptions-plan-quote");

    await page.getByRole("button", { name: "Apply this quote" }).click();
    await page.waitForURL(`**${detailPath}?done=plan-changed`);
    const s = await subscription();
    expect(s).toMatchObject({ planId: pro.id, planName: "Pro", price: "30.000000", status: "ACTIVE" });
    expect(await page.locator("#state-title + dl").textContent()).toContain(`Pro (${pro.id})`);
    // The proration pulled is the quote's total, in token units (6 decimals).
    const proration = s.operations.find((o: { kind: string }) => o.kind === "proration");
    expect(proration).toMatchObject({ status: "succeeded", amount: String(BigInt(preview.invoice.total.replace(".", ""))) });
    expect(await page.getByRole("link", { name: proration.invoiceId }).count()).toBe(1);

    // The same quote applied again (a second tab, a replayed form): the API refuses it, and the page says why.
    const csrf = (await page.locator('input[name="csrf"]').first().getAttribute("value"))!;
    const again = await post(page, `${detailPath}/plan`, { quoteId, planId: pro.id, billingPeriod: "monthly", effective: "now", csrf });
    expect(again.status).toBe(409);
    const refused = await api.write("POST", "/dashboard/companies/acme/plan", { quoteId, planId: pro.id });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe("quote_used");
    expect(again.text).toContain(Bun.escapeHTML(refused.body.error));
    expect((await subscription()).operations.filter((o: { kind: string }) => o.kind === "proration")).toHaveLength(1);
  },
  BROWSER_TEST_MS,
);

test(
  "revoke the mandate through its confirmation page; cancel now; a second cancel shows the API's refusal",
  async () => {
    await page.goto(detailPath);
    await page.getByRole("link", { name: "Revoke mandate" }).click();
    await page.waitForURL(`**${detailPath}/revoke-mandate`);
    await inert(page);
    await page.getByLabel("Reason (optional)").fill("Payer asked");
    await page.getByRole("button", { name: "Revoke mandate" }).click();
    await page.waitForURL(`**${detailPath}?done=mandate-revoked`);
    const { mandateId } = await subscription();
    expect((await api.read(`/mandates/${mandateId}/status`)).body).toMatchObject({ status: "REVOKED", revokeReason: "Payer asked" });
    expect(await page.locator("#mandate-title + dl").textContent()).toContain("REVOKED");
    expect(await page.getByRole("link", { name: "Revoke mandate" }).count()).toBe(0);
    // Revoked already (the confirmation page from before): the API's 409 message, above the form.
    await page.goto(`${detailPath}/revoke-mandate`);
    await page.getByRole("button", { name: "Revoke mandate" }).click();
    const twice = await api.write("POST", "/mandates/revoke", { mandateId });
    expect(twice.status).toBe(409);
    expect(await page.getByRole("alert").textContent()).toBe(twice.body.error);
    await page.goto(detailPath);

    await page.getByRole("link", { name: "Cancel subscription" }).click();
    await page.getByLabel(/^Now/).check();
    await page.getByRole("button", { name: "Cancel subscription" }).click();
    await page.waitForURL(`**${detailPath}?done=canceled`);
    expect((await subscription()).status).toBe("CANCELED");
    expect(await page.getByRole("link", { name: "Cancel subscription" }).count()).toBe(0);

    // The confirmation page again, as a second tab would still show it: the API refuses, its message shown, the choice kept.
    await page.goto(`${detailPath}/cancel`);
    await page.getByLabel(/^Now/).check();
    const [answer] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === "POST"),
      page.getByRole("button", { name: "Cancel subscription" }).click(),
    ]);
    expect(answer.status()).toBe(409);
    const refusal = await api.write("POST", `/dashboard/subscriptions/${subscriptionId}/cancel`, { atPeriodEnd: false });
    expect(refusal.status).toBe(409);
    expect(await page.getByRole("alert").textContent()).toBe(refusal.body.error);
    expect(await page.getByLabel(/^Now/).isChecked()).toBe(true);
  },
  BROWSER_TEST_MS,
);
