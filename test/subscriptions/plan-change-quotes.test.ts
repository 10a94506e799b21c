/**
 * A plan change's quote is the charge: the preview (embed and dashboard) records a quote; the change given its
 * id minutes later prices at the quote's instant and writes exactly the quoted amounts, to the micro-unit, once.
 * Expired, used, stale, mismatched and foreign quotes are refused with their codes and change nothing; without a
 * quote the change prices at its own instant and says so. Paths that move no tokens (a downgrade credited to the
 * balance, an upgrade the credit balance covers), so the rows alone show what was charged.
 */
import { expect, test } from "bun:test";
import { createPlanRecord } from "../../src/modules/catalog/plans/edit";
import { addBalanceEntry } from "../../src/modules/invoices/credit-notes/repo";
import { createDashboardSession } from "../../src/modules/teams/automation-session";
import { createTestApp } from "../helpers/app";
import { createTeamFixture } from "../helpers/fixtures";
import { companyName, subscriptionFixture } from "../helpers/subscription-rows";

const t = await createTestApp();
const sql = t.db.sql;
const team = await createTeamFixture(t, "Quotes");
const tenant = { teamId: team.teamId, environment: "development" as const };
const actor = { kind: "test", id: "test", requestId: null };
const catalog = { sql, chains: t.config.chains, now: () => new Date(t.clock.now()) };
const monthly = (amount: string) => [{ billingPeriod: "monthly" as const, amount, currency: "USDC" }];
const basic = await createPlanRecord(catalog, tenant, actor, { name: "Basic", prices: monthly("10") });
const lite = await createPlanRecord(catalog, tenant, actor, { name: "Lite", prices: monthly("3.33") });
const pro = await createPlanRecord(catalog, tenant, actor, { name: "Pro", prices: monthly("29.99") });
const MINUTE = 60_000;

const operator = async () => (await createDashboardSession(sql, { ...tenant, userEmail: "ops@test.dev", roles: ["admin"] }, t.clock.now())).session;
const embed = async (company: string) =>
  (await t.call("POST", "/api-keys/tokens", { token: team.keys.secret, body: { company: { id: company }, ttlSeconds: 900 } })).body.token;

/** A company on Basic (10 USDC a month), ten days into its period. */
async function customer() {
  const company = companyName();
  const made = await subscriptionFixture(sql, tenant, { company, planId: basic.id, now: new Date(t.clock.now() - 10 * 86_400_000) });
  return { company, companyId: made.company.id, subscriptionId: made.subscription.id };
}

const balanceEntries = (companyId: string) =>
  sql<{ amount: bigint }[]>`select amount from customer_balance_entries where company_id = ${companyId} order by created_at, id`;
const subscriptionRow = async (id: string) => (await sql`select plan_id, price_amount from subscriptions where id = ${id}`)[0]!;
const micro = (decimal: string) => BigInt(decimal.replace(".", ""));
/** What the company is owed, added to its credit balance. */
const credit = (companyId: string, amount: bigint, reason: string) =>
  sql.begin((tx) => addBalanceEntry(tx, tenant, { companyId, currency: "USDC", amount, reason, invoiceId: null }, new Date(t.clock.now())));

test("a downgrade's quote is credited to the micro-unit minutes later; a preview made then would credit less", async () => {
  const c = await customer();
  const token = await operator();
  const preview = await t.call("POST", `/dashboard/companies/${c.company}/plan/preview`, { token, body: { planId: lite.id } });
  expect(preview.status).toBe(200);
  const quoted = preview.body.data;
  expect(quoted).toMatchObject({ kind: "downgrade", effective: "now", invoice: null });
  expect(quoted.quote.id).toMatch(/^quo_/);
  expect(quoted.quote.pricedAt).toBe(new Date(t.clock.now()).toISOString());
  expect(Date.parse(quoted.quote.expiresAt) - Date.parse(quoted.quote.pricedAt)).toBe(15 * MINUTE);

  t.clock.advance(7 * MINUTE);
  const later = (await t.call("POST", `/dashboard/companies/${c.company}/plan/preview`, { token, body: { planId: lite.id } })).body.data;
  expect(micro(later.creditToBalance)).toBeLessThan(micro(quoted.creditToBalance)); // the clock moved the price

  const changed = await t.call("POST", `/dashboard/companies/${c.company}/plan`, { token, body: { planId: lite.id, quoteId: quoted.quote.id } });
  expect(changed.status).toBe(200);
  expect(changed.body.data).toMatchObject({ success: true, planId: lite.id, effective: "now", invoiceId: null });
  expect(changed.body.data).toMatchObject({ quoteId: quoted.quote.id, pricedAt: quoted.quote.pricedAt });
  expect((await balanceEntries(c.companyId)).map((e) => e.amount)).toEqual([micro(quoted.creditToBalance)]);
  expect(await subscriptionRow(c.subscriptionId)).toEqual({ plan_id: lite.id, price_amount: 3_330_000n });

  // Used once: the same quote again is refused and writes nothing.
  const again = await t.call("POST", `/dashboard/companies/${c.company}/plan`, { token, body: { planId: lite.id, quoteId: quoted.quote.id } });
  expect(again.status).toBe(409);
  expect(again.body).toEqual({ error: expect.any(String), code: "quote_used" });
  expect(await balanceEntries(c.companyId)).toHaveLength(1);
});

test("an upgrade the credit balance covers, quoted by the customer's embed token: the invoice's lines and total are the quote's", async () => {
  const c = await customer();
  await credit(c.companyId, 50_000_000n, "goodwill");
  const token = await embed(c.company);
  const preview = await t.call("POST", "/companies/plan/preview", { token, body: { planId: pro.id } });
  expect(preview.status).toBe(200);
  const quoted = preview.body.data;
  expect(quoted).toMatchObject({ kind: "upgrade", effective: "now" });
  expect(quoted.invoice.total).toBe("0.000000"); // the balance covers it all
  t.clock.advance(4 * MINUTE + 321);

  const changed = await t.call("POST", "/companies/plan", { token, body: { planId: pro.id, quoteId: quoted.quote.id } });
  expect(changed.status).toBe(200);
  expect(changed.body.data).toMatchObject({ planId: pro.id, quoteId: quoted.quote.id, pricedAt: quoted.quote.pricedAt });
  const invoice = (await t.call("GET", `/invoices/${changed.body.data.invoiceId}`, { token: team.keys.secret })).body.invoice;
  expect(invoice.status).toBe("PAID");
  expect(invoice.total).toBe(quoted.invoice.total);
  expect(invoice.lineItems.map((l: { description: string; lineTotal: string }) => [l.description, l.lineTotal])).toEqual(
    quoted.invoice.lineItems.map((l: { description: string; lineTotal: string }) => [l.description, l.lineTotal]),
  );
  const drawn = (await balanceEntries(c.companyId)).map((e) => e.amount);
  expect(drawn).toEqual([50_000_000n, -micro(quoted.invoice.balanceApplied)]);
});

test("without a quote the change prices at its own instant and says so", async () => {
  const c = await customer();
  const token = await operator();
  t.clock.advance(1_234);
  const changed = await t.call("POST", `/dashboard/companies/${c.company}/plan`, { token, body: { planId: lite.id } });
  expect(changed.status).toBe(200);
  expect(changed.body.data).toMatchObject({ quoteId: null, pricedAt: new Date(t.clock.now()).toISOString() });
});

test("expired, stale, mismatched and foreign quotes: refused with their codes, nothing written", async () => {
  const c = await customer();
  const token = await operator();
  const preview = async (body: object = { planId: lite.id }) =>
    (await t.call("POST", `/dashboard/companies/${c.company}/plan/preview`, { token, body })).body.data.quote.id as string;
  const change = (body: object) => t.call("POST", `/dashboard/companies/${c.company}/plan`, { token, body });
  const untouched = async () => {
    expect(await subscriptionRow(c.subscriptionId)).toEqual({ plan_id: basic.id, price_amount: 10_000_000n });
    expect(await balanceEntries(c.companyId)).toHaveLength(0);
  };

  const expiring = await preview();
  t.clock.advance(15 * MINUTE);
  const expired = await change({ planId: lite.id, quoteId: expiring });
  expect({ status: expired.status, code: expired.body.code }).toEqual({ status: 409, code: "quote_expired" });
  await untouched();

  // The body may leave the quote's terms out; given, they must be the quote's.
  const quoteId = await preview();
  const mismatched = await change({ planId: pro.id, quoteId, billingPeriod: "yearly", effective: "period_end" });
  expect(mismatched.status).toBe(400);
  expect(Object.keys(mismatched.body.details).sort()).toEqual(["body.billingPeriod", "body.effective", "body.planId"]);
  await untouched();

  const foreignCompany = await customer();
  const foreign = await t.call("POST", `/dashboard/companies/${foreignCompany.company}/plan`, { token, body: { planId: lite.id, quoteId } });
  expect({ status: foreign.status, code: foreign.body.code }).toEqual({ status: 404, code: "quote_not_found" });
  await untouched();

  // The credit balance moved since the quote (the tax rate would too): the quote no longer prices the same.
  await credit(c.companyId, 1n, "rounding");
  const upgradeQuote = await preview({ planId: pro.id });
  await credit(c.companyId, 1n, "rounding");
  const stale = await change({ planId: pro.id, quoteId: upgradeQuote });
  expect({ status: stale.status, code: stale.body.code }).toEqual({ status: 409, code: "quote_stale" });
  expect(await subscriptionRow(c.subscriptionId)).toEqual({ plan_id: basic.id, price_amount: 10_000_000n });

  // The subscription moved since the quote (another change): stale too, and the used quote stays unused.
  const downgradeQuote = await preview();
  expect((await change({ planId: pro.id, effective: "period_end" })).status).toBe(200);
  const moved = await change({ quoteId: downgradeQuote, planId: lite.id });
  expect({ status: moved.status, code: moved.body.code }).toEqual({ status: 409, code: "quote_stale" });
  expect((await sql`select used_at from plan_change_quotes where id = ${downgradeQuote}`)[0]!.used_at).toBeNull();
});
