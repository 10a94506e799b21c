/**
 * The escrow pages in Chromium, on the escrow tests' anvil bed (test/helpers/escrow.ts): the reservations and the
 * disputes the API lists, the status filter, a reservation's detail, a dispute resolved through the confirmation page
 * (the API's status and the chain change), the zkTLS proofs; a read-only member sees no resolve control and a forged
 * post changes nothing; hostile request nonces, delivery providers, dispute reasons and proof fields print as text.
 */
import { expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { canonicalJson } from "../../src/modules/proofs/compute";
import { PASSWORD, browser as sessionOf, newOperator } from "../helpers/dashboard";
import { BROWSER_TEST_MS, screenshot, seriousViolations, signInThroughPage, startDashboard } from "../helpers/dashboard-browser";
import { escrowApp } from "../helpers/escrow";
import { signedProof } from "../helpers/zktls";

const IMG = "<img src=x onerror=window.__x=1>";
const SCRIPT = '"><script>window.__x=1</script>';

const e = await escrowApp({ DASHBOARD_COOKIE_SECURE: "false" });
const bed = await startDashboard({}, e.t);
const { t, team } = e;
const owner = await newOperator(t, team.teamId, ["owner"]);
const reader = await newOperator(t, team.teamId, ["billing:read", "customers:read"]);
const ownerApi = await sessionOf(t, owner.email);

/** A reservation of the bed's payer, disputed by the payer's signature with `reason`. */
async function disputed(reason: string, requestNonce?: string) {
  const r = await e.reserved(requestNonce ? { requestNonce } : {});
  const res = await t.call("POST", "/public/escrow/dispute", { body: await e.disputeBody(e.bed.payer, r.requestNonce, reason) });
  expect(res.status).toBe(200);
  return r;
}
const held = await e.reserved({ deliveryProvider: IMG });
const toRefund = await disputed(SCRIPT, SCRIPT);
const untouched = await disputed(IMG);
const proof = await signedProof(t.clock.now(), undefined, {
  provider: IMG,
  parameters: canonicalJson({ url: SCRIPT }),
  context: canonicalJson({ note: IMG }),
});
expect((await t.call("POST", "/proofs/zktls", { token: team.keys.secret, body: { company: { id: "acme" }, proof } })).status).toBe(201);

const reservation = async (id: string) => (await ownerApi.read(`/escrow/reservations/${id}`)).body.reservation;
const rowTexts = (page: Page, section: string) => page.locator(`section[aria-labelledby="${section}"] tbody tr`).allTextContents();

/** Nothing hostile became an element or ran. */
async function inert(page: Page) {
  expect(await page.evaluate(() => (window as { __x?: unknown }).__x)).toBeUndefined();
  expect(await page.locator('main img[src="x"], main script').count()).toBe(0);
}

test(
  "the list and the disputes are the API's; a dispute is refunded through the confirmation page: the API and the chain say refunded",
  async () => {
    const page = await bed.newPage();
    await signInThroughPage(page, owner.email, PASSWORD);
    await page.getByRole("link", { name: "Escrow", exact: true }).click();
    await page.waitForURL("**/dashboard/escrow");
    const listed = (await ownerApi.read("/escrow/reservations")).body.data as { requestNonce: string; status: string }[];
    const rows = await rowTexts(page, "reservations-title");
    expect(rows.length).toBe(listed.length);
    listed.forEach((r, i) => {
      expect(rows[i]).toContain(r.requestNonce);
      expect(rows[i]).toContain(r.status);
    });
    const disputes = await rowTexts(page, "disputes-title");
    expect(disputes.length).toBe(2);
    expect(disputes.join(" ")).toContain(SCRIPT);
    expect(await page.locator("main").textContent()).toContain(IMG); // the delivery provider, as text
    await inert(page);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, "escrow");

    await page.locator('section[aria-labelledby="disputes-title"]').getByRole("link", { name: SCRIPT, exact: true }).click();
    await page.waitForURL(`**/dashboard/escrow/${toRefund.id}`);
    expect(await page.locator("h1").textContent()).toContain(SCRIPT);
    expect(await page.locator("dl").textContent()).toContain("disputed");
    await inert(page);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, "escrow-reservation");

    await page.getByRole("link", { name: "Refund the payer" }).click();
    const payer = (await reservation(toRefund.id)).payer as string;
    expect(await page.locator(".destination").textContent()).toBe(`The 5000000 USDC units go back to the payer ${payer}.`);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, "escrow-resolve");
    expect((await reservation(toRefund.id)).status).toBe("disputed"); // the confirmation page changed nothing

    await page.getByRole("button", { name: "Refund the payer" }).click();
    await page.waitForURL(`**/dashboard/escrow/${toRefund.id}?done=refunded`);
    expect(await page.getByRole("status").textContent()).toContain("went back to the payer");
    const after = await reservation(toRefund.id);
    expect(after.status).toBe("refunded");
    expect(after.transactions.refund).toMatch(/^0x[0-9a-f]{64}$/);
    expect((await e.expectChainMatches(toRefund.requestNonce)).chain.status).toBe("refunded");
    expect(await page.locator("dl").textContent()).toContain(after.transactions.refund.slice(0, 8));
    expect(await page.getByRole("link", { name: "Refund the payer" }).count()).toBe(0);

    // Resolved already: the confirmation posted again (a second tab, say) comes back with the API's refusal.
    await page.goto(`/dashboard/escrow/${toRefund.id}/resolve?outcome=captured`);
    const [answer] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === "POST"),
      page.getByRole("button", { name: "Capture to the payee" }).click(),
    ]);
    expect(answer.status()).toBe(409);
    expect(await page.getByRole("alert").textContent()).toContain("Only a disputed reservation is resolved; this one is refunded");
    expect((await reservation(toRefund.id)).status).toBe("refunded");
    await page.context().close();
  },
  BROWSER_TEST_MS,
);

test(
  "the status filter lists what the API lists for it; the proofs page lists the verified proofs, hostile fields as text",
  async () => {
    const page = await bed.newPage();
    await signInThroughPage(page, owner.email, PASSWORD);
    await page.goto("/dashboard/escrow");
    await page.getByLabel("Status").selectOption("authorized");
    await page.getByRole("button", { name: "Filter" }).click();
    await page.waitForURL("**/dashboard/escrow?status=authorized");
    const api = (await ownerApi.read("/escrow/reservations?status=authorized")).body.data as { requestNonce: string }[];
    expect(api.map((r) => r.requestNonce)).toEqual([held.requestNonce]);
    const rows = await rowTexts(page, "reservations-title");
    expect(rows.length).toBe(1);
    expect(rows[0]).toContain(held.requestNonce);
    expect(await page.locator('section[aria-labelledby="disputes-title"]').count()).toBe(0);

    await page.getByRole("link", { name: "zkTLS proofs of delivery" }).click();
    await page.waitForURL("**/dashboard/escrow/proofs");
    const proofs = (await ownerApi.read("/proofs/zktls")).body.data as { provider: string }[];
    const proofRows = await rowTexts(page, "proofs-title");
    expect(proofRows.length).toBe(proofs.length);
    expect(proofRows[0]).toContain(IMG);
    expect(proofRows[0]).toContain(SCRIPT);
    expect(proofRows[0]).toContain("1 attestor");
    await inert(page);
    await screenshot(page, "escrow-proofs");
    expect(await seriousViolations(page)).toEqual([]);
    await page.context().close();
  },
  BROWSER_TEST_MS,
);

test(
  "a read-only member sees no resolve control; a forged resolve (its role, or no CSRF token) changes nothing",
  async () => {
    const page = await bed.newPage();
    await signInThroughPage(page, reader.email, PASSWORD);
    await page.goto("/dashboard/escrow");
    expect(await page.getByRole("link", { name: /Resolve/ }).count()).toBe(0);
    await page.goto(`/dashboard/escrow/${untouched.id}`);
    expect(await page.locator("dl").textContent()).toContain("disputed");
    expect(await page.getByRole("link", { name: /Refund|Capture/ }).count()).toBe(0);
    expect(await page.locator("main form").count()).toBe(0);
    await inert(page);
    const confirm = await page.goto(`/dashboard/escrow/${untouched.id}/resolve?outcome=captured`);
    expect(confirm!.status()).toBe(403);

    const csrf = (await page.locator('input[name="csrf"]').first().getAttribute("value"))!;
    const post = (fields: Record<string, string>) =>
      page.evaluate(
        async ({ path, fields }) => (await fetch(path, { method: "POST", body: new URLSearchParams(fields), redirect: "manual" })).status,
        { path: `/dashboard/escrow/${untouched.id}/resolve`, fields },
      );
    expect(await post({ outcome: "captured", csrf })).toBe(403);
    await page.context().close();

    const ownerPage = await bed.newPage();
    await signInThroughPage(ownerPage, owner.email, PASSWORD);
    await ownerPage.goto(`/dashboard/escrow/${untouched.id}`);
    const noToken = await ownerPage.evaluate(
      async (path) => (await fetch(path, { method: "POST", body: new URLSearchParams({ outcome: "captured" }), redirect: "manual" })).status,
      `/dashboard/escrow/${untouched.id}/resolve`,
    );
    expect(noToken).toBe(403);
    expect((await reservation(untouched.id)).status).toBe("disputed");
    expect((await e.expectChainMatches(untouched.requestNonce)).chain.status).toBe("disputed");
    expect(bed.blocked).toEqual([]);
    await ownerPage.context().close();
  },
  BROWSER_TEST_MS,
);
