/**
 * The agents page in Chromium: auto-topup configurations (made through POST /agent/dispatch), their dispatches and
 * a funding mandate (recorded through the module's repo functions, as the auto-topup tests' monitor records them)
 * as the API lists them, the transaction linked to the explorer the API names; a configuration disabled and
 * another deleted, and the mandate removed, each through its confirmation page, and the API changed; a read-only
 * member sees no control and a forged post changes nothing; a hostile refusal detail prints as text.
 */
import { expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { newId } from "../../src/lib/ids";
import { dispatchReference } from "../../src/modules/agents/compute";
import { insertDispatch, settleDispatch, upsertFundingMandate } from "../../src/modules/agents/repo";
import { PASSWORD, browser as sessionOf, newOperator } from "../helpers/dashboard";
import { BROWSER_TEST_MS, screenshot, seriousViolations, signInThroughPage, startDashboard } from "../helpers/dashboard-browser";
import { createTeamFixture } from "../helpers/fixtures";

const IMG = "<img src=x onerror=window.__x=1>";
const SCRIPT = '"><script>window.__x=1</script>';
const HASH = `0x${"ab".repeat(32)}`;
const WALLETS = [
  "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
  "0x90F79bf6EB2c4f870365E785982E1f101E93b906",
  "0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65",
];
const FUNDER = "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC";

const bed = await startDashboard();
const { t } = bed;
const team = await createTeamFixture(t, "Agents team");
const tenant = { teamId: team.teamId, environment: "development" as const };
const owner = await newOperator(t, team.teamId, ["owner"]);
const reader = await newOperator(t, team.teamId, ["billing:read"]);
const ownerApi = await sessionOf(t, owner.email);

const configs: { id: string; targetWallet: string }[] = [];
for (const wallet of WALLETS) {
  const res = await t.call("POST", "/agent/dispatch", {
    token: team.keys.secret,
    body: { minBalanceThreshold: "5000000", topupAmount: "20000000", targetWallet: wallet, network: "base-sepolia" },
  });
  expect(res.status).toBe(201);
  configs.push(res.body.data);
}
const [first, second, third] = configs as [(typeof configs)[0], (typeof configs)[0], (typeof configs)[0]];
const now = () => new Date(t.clock.now());
const mandate = await upsertFundingMandate(
  t.db.sql,
  tenant,
  {
    id: newId("fmd"),
    network: "base-sepolia",
    token: "USDC",
    wallet: FUNDER,
    operator: WALLETS[2]!,
    authorized: 300_000_000n,
    dailyCap: 100_000_000n,
    consent: { issuedAt: now().toISOString(), nonce: "kU2x9bQmZr4TfW7yHc1pLs", signature: `0x${"1b".repeat(65)}`, total: "500000000" },
  },
  now(),
);
/** A dispatch of `config`, as the monitor records one: confirmed with its hash, or failed with a reason. */
async function dispatched(
  config: { id: string; targetWallet: string },
  crossing: number,
  outcome: { txHash: string } | { reason: string; detail: string },
) {
  const id = newId("atd");
  await insertDispatch(t.db.sql, {
    id,
    team_id: team.teamId,
    environment: "development",
    config_id: config.id,
    crossing: String(crossing),
    funding_mandate_id: "txHash" in outcome ? mandate.id : null,
    network: "base-sepolia",
    token_symbol: "USDC",
    funding_wallet: "txHash" in outcome ? FUNDER : null,
    target_wallet: config.targetWallet,
    amount: "20000000",
    balance_seen: "1000000",
    status: "txHash" in outcome ? "pending" : "failed",
    reason: "txHash" in outcome ? null : outcome.reason,
    detail: "txHash" in outcome ? null : outcome.detail,
    reference: dispatchReference(id),
    from_block: null,
    created_at: now().toISOString(),
  });
  if ("txHash" in outcome)
    await settleDispatch(t.db.sql, { ...tenant, id }, { status: "confirmed", txHash: outcome.txHash, reason: null, detail: null }, now());
}
await dispatched(first, 1, { txHash: HASH });
t.clock.advance(60_000);
await dispatched(second, 1, { reason: "mandate_missing", detail: `${IMG}${SCRIPT}` });

const configsOf = async () =>
  (await ownerApi.read("/dashboard/agent-dispatch")).body.data as { id: string; targetWallet: string; enabled: boolean }[];
const section = (page: Page, id: string) => page.locator(`section[aria-labelledby="${id}"]`);
async function inert(page: Page) {
  expect(await page.evaluate(() => (window as { __x?: unknown }).__x)).toBeUndefined();
  expect(await page.locator('main img[src="x"], main script').count()).toBe(0);
}

test(
  "the page lists what the API lists: configurations with their last dispatch, dispatches linked to the explorer, the funding mandate, x402 payments",
  async () => {
    const page = await bed.newPage();
    await signInThroughPage(page, owner.email, PASSWORD);
    await page.getByRole("link", { name: "Agents", exact: true }).click();
    await page.waitForURL("**/dashboard/agents");

    const listed = await configsOf();
    const rows = await section(page, "configs-title").locator("tbody tr").allTextContents();
    expect(rows.length).toBe(listed.length);
    listed.forEach((c, i) => expect(rows[i]).toContain(c.targetWallet));
    const firstRow = section(page, "configs-title").locator("tbody tr", { hasText: first.targetWallet });
    expect(await firstRow.textContent()).toContain("confirmed");
    expect(await section(page, "configs-title").locator("tbody tr", { hasText: third.targetWallet }).textContent()).toContain("None yet");

    const dispatches = (await ownerApi.read("/dashboard/agent-topups")).body.data as { txHash: string | null; explorerUrl: string | null }[];
    expect(dispatches.length).toBe(2);
    expect(await section(page, "dispatches-title").locator("tbody tr").count()).toBe(2);
    const confirmed = dispatches.find((d) => d.txHash)!;
    expect(confirmed.explorerUrl).toBe(`https://sepolia.basescan.org/tx/${HASH}`);
    expect(await section(page, "dispatches-title").locator("a.tx-link").getAttribute("href")).toBe(confirmed.explorerUrl);
    const refused = await section(page, "dispatches-title").locator("tbody tr", { hasText: "mandate_missing" }).textContent();
    expect(refused).toContain(`mandate_missing: ${IMG}${SCRIPT}`);
    await inert(page);

    const funding = await section(page, "funding-title").locator("tbody tr").textContent();
    for (const value of [FUNDER, "500000000", "100000000", "300000000"]) expect(funding).toContain(value);
    expect(await section(page, "funding-title").textContent()).toContain("funding wallet's signature");
    expect((await ownerApi.read("/dashboard/x402-payments")).body.data).toEqual([]);
    expect(await section(page, "payments-title").textContent()).toContain("No x402 payments yet.");
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, "agents");
    await page.context().close();
  },
  BROWSER_TEST_MS,
);

test(
  "disable and delete a configuration, and remove the funding mandate, each through its confirmation page: the API changes",
  async () => {
    const page = await bed.newPage();
    await signInThroughPage(page, owner.email, PASSWORD);
    await page.goto("/dashboard/agents");
    await page.getByRole("link", { name: `Disable ${second.targetWallet} on base-sepolia` }).click();
    await page.waitForURL(`**/dashboard/agents/${second.id}/disable`);
    expect(await page.locator("dl").textContent()).toContain(second.targetWallet);
    expect((await configsOf()).find((c) => c.id === second.id)!.enabled).toBe(true); // the confirmation changed nothing
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, "agents-disable");
    await page.getByRole("button", { name: "Disable auto-topup" }).click();
    await page.waitForURL("**/dashboard/agents?done=disabled");
    expect(await page.getByRole("status").textContent()).toContain("Auto-topup disabled.");
    expect((await configsOf()).find((c) => c.id === second.id)!.enabled).toBe(false);
    expect(await section(page, "configs-title").locator("tbody tr", { hasText: second.targetWallet }).textContent()).toContain("Disabled");

    await page.getByRole("link", { name: `Delete ${third.targetWallet} on base-sepolia` }).click();
    await page.getByRole("button", { name: "Delete auto-topup" }).click();
    await page.waitForURL("**/dashboard/agents?done=deleted");
    expect((await configsOf()).map((c) => c.id)).not.toContain(third.id);

    await page.getByRole("link", { name: "Remove the mandate on base-sepolia" }).click();
    expect(await page.locator("main").textContent()).toContain(FUNDER);
    await page.getByRole("button", { name: "Remove funding mandate" }).click();
    await page.waitForURL("**/dashboard/agents?done=funding-removed");
    expect((await ownerApi.read("/dashboard/agent-funding")).body.data[0].status).toBe("REVOKED");
    await page.context().close();
  },
  BROWSER_TEST_MS,
);

test(
  "a read-only member sees no disable, delete or remove control; a forged disable (its role, or no CSRF token) changes nothing",
  async () => {
    const page = await bed.newPage();
    await signInThroughPage(page, reader.email, PASSWORD);
    await page.goto("/dashboard/agents");
    expect(await section(page, "configs-title").locator("tbody tr").count()).toBeGreaterThan(0);
    expect(await page.getByRole("link", { name: /Disable|Delete|Remove/ }).count()).toBe(0);
    expect(await page.locator("main form").count()).toBe(0);
    expect(await page.locator("main").textContent()).toContain("not disable or delete");
    const csrf = (await page.locator('input[name="csrf"]').first().getAttribute("value"))!;
    const post = (p: Page, fields: Record<string, string>) =>
      p.evaluate(async ({ path, fields }) => (await fetch(path, { method: "POST", body: new URLSearchParams(fields), redirect: "manual" })).status, {
        path: `/dashboard/agents/${first.id}/disable`,
        fields,
      });
    expect(await post(page, { csrf })).toBe(403);
    await page.context().close();

    const ownerPage = await bed.newPage();
    await signInThroughPage(ownerPage, owner.email, PASSWORD);
    await ownerPage.goto("/dashboard/agents");
    expect(await post(ownerPage, {})).toBe(403);
    expect((await configsOf()).find((c) => c.id === first.id)!.enabled).toBe(true);
    expect(bed.blocked).toEqual([]);
    await ownerPage.context().close();
  },
  BROWSER_TEST_MS,
);
