/**
 * Plan changes on anvil through the API (POST /companies/plan with the customer's embed token, the
 * dashboard's preview): an upgrade pulled through the mandate, one paid by a transfer (txHash), an
 * immediate downgrade credited to the balance the next renewal draws, a downgrade scheduled for the
 * period's end, and a change racing a renewal. The preview is the invoice the change issues, line for line,
 * and the payer's balance moves by exactly what the PAID invoices ask.
 */
import { expect, test } from "bun:test";
import { erc20Abi } from "viem";
import { foundry } from "viem/chains";
import { createPlanRecord } from "../../src/modules/catalog/plans/edit";
import { createDashboardSession } from "../../src/modules/teams/automation-session";
import { queueDueRenewals } from "../../src/modules/subscriptions/renewal/jobs";
import { renewSubscription } from "../../src/modules/subscriptions/renewal/renew";
import { DAY } from "../helpers/chains/anvil-subscriptions";
import { drainJobs } from "../helpers/jobs";
import { anvilSubscriptionApp } from "../helpers/subscriptions";

// Room in each window for a renewal and a proration on top of it.
const { bed, t, team, tenant, actor, catalog, syncClock, companyPlan } = await anvilSubscriptionApp({
  terms: { periodAllowance: 100_000_000n, cap: 1_000_000_000n },
});
const basic = await createPlanRecord(catalog, tenant, actor, {
  name: "Basic",
  prices: [{ billingPeriod: "monthly", amount: "10", currency: "USDC" }],
  onchainPlanIds: { anvil: "basic" },
});
const pro = await createPlanRecord(catalog, tenant, actor, {
  name: "Pro",
  prices: [
    { billingPeriod: "monthly", amount: "30", currency: "USDC" },
    { billingPeriod: "yearly", amount: "300", currency: "USDC" },
  ],
  onchainPlanIds: { anvil: "pro" },
});
await t.db.sql`insert into subscription_settings (team_id, environment, tax_rate) values (${team.teamId}, 'development', 72500)`;

const usdc = (holder: `0x${string}`) => bed.balanceOf(holder);
const subscription = async () => (await t.db.sql`select * from subscriptions where team_id = ${team.teamId} and status <> 'CANCELED'`)[0]!;
const mandate = async () => (await t.db.sql`select * from mandates where team_id = ${team.teamId}`)[0]!;
const paidTotal = async () =>
  BigInt((await t.db.sql`select coalesce(sum(amount_paid), 0)::text as s from invoices where team_id = ${team.teamId}`)[0]!.s);
const balance = async () =>
  BigInt((await t.db.sql`select coalesce(sum(amount), 0)::text as s from customer_balance_entries where team_id = ${team.teamId}`)[0]!.s);
// Credentials made at the service's clock, which these tests move by days (sessions and embed tokens expire).
const admin = async () => ({
  token: (
    await createDashboardSession(
      t.db.sql,
      { teamId: team.teamId, environment: "development", userEmail: "admin@test.dev", roles: ["admin"] },
      t.clock.now(),
    )
  ).session,
});
const embed = async () =>
  (await t.call("POST", "/api-keys/tokens", { token: team.keys.secret, body: { company: { id: "acme" }, ttlSeconds: 900 } })).body.token;
const change = async (body: Record<string, unknown>) => t.call("POST", "/companies/plan", { token: await embed(), body });
const preview = async (body: Record<string, unknown>) => t.call("POST", "/dashboard/companies/acme/plan/preview", { ...(await admin()), body });

async function elapse(seconds: number) {
  await bed.elapse(seconds);
  await syncClock();
}

async function renewNow() {
  await queueDueRenewals(t.deps.subscriptions, new Date(t.clock.now()));
  await drainJobs(t);
}

await syncClock();
const payerStart = await usdc(bed.payer.address);
const activated = await t.call("POST", "/subscriptions/activate", {
  token: team.keys.legacy,
  body: { planId: "basic", paymentAccount: bed.payer.address, company: { id: "acme" }, payerConsent: (await bed.consent(bed.payer, "acme")).body },
});
expect(activated.status).toBe(200);

/** Transfers to the payee that pay no invoice (a proof refused as too small). */
let unrecorded = 0n;
/** The payer paid exactly what the invoices were paid (USDC has 6 decimals: token units are micro-units). */
const moneyAgrees = async () => expect(payerStart - (await usdc(bed.payer.address)) - unrecorded).toBe(await paidTotal());

test("an upgrade mid-period: the preview is the invoice, pulled through the mandate, the company on the new plan", async () => {
  await elapse(10 * DAY);
  const shown = await preview({ planId: "pro" });
  expect(shown.status).toBe(200);
  const p = shown.body.data;
  expect(p).toMatchObject({ kind: "upgrade", changed: true, effective: "now", planId: pro.id });
  // Two lines, each rounded once: the unused Basic time credited, the same seconds of Pro charged, both taxed.
  expect(p.invoice.lineItems.map((l: { kind: string }) => l.kind)).toEqual(["proration", "proration"]);
  expect(BigInt(p.credit.replace(".", "")) * 3n - BigInt(p.charge.replace(".", ""))).toBeLessThanOrEqual(3n);
  const mandateBefore = BigInt((await mandate()).remaining_amount);

  // Given the preview's quote, the change prices at the preview's instant and pulls exactly it.
  const res = await change({ planId: "pro", customerEmail: "ap@acme.test", quoteId: p.quote.id });
  expect(res.status).toBe(200);
  const sub = await subscription();
  expect(res.body.data).toEqual({
    success: true,
    planId: pro.id,
    status: "ACTIVE",
    currentPeriodEnd: sub.current_period_end.toISOString(),
    effective: "now",
    invoiceId: expect.stringMatching(/^in_/),
    pricedAt: p.quote.pricedAt,
    quoteId: p.quote.id,
  });
  const invoice = (await t.call("GET", `/invoices/${res.body.data.invoiceId}`, { token: team.keys.secret })).body.invoice;
  expect(invoice.status).toBe("PAID");
  expect(invoice.customerEmail).toBe("ap@acme.test");
  expect(invoice.lineItems).toEqual(p.invoice.lineItems);
  expect(invoice.total).toBe(p.invoice.total);
  expect(sub.plan_id).toBe(pro.id);
  expect(sub.price_amount).toBe(30_000_000n);
  expect(await companyPlan()).toBe(pro.id);
  // The mandate is lowered by the pull; the chain moved exactly the invoice.
  const pulled = BigInt(invoice.total.replace(".", ""));
  expect(BigInt((await mandate()).remaining_amount)).toBe(mandateBefore - pulled);
  await moneyAgrees();
  const audited = await t.db.sql`select details from audit_log where team_id = ${team.teamId} and action = 'subscription.change_plan'`;
  expect(audited.map((a) => a.details)).toEqual([expect.objectContaining({ fromPlanId: basic.id, kind: "upgrade", effective: "now" })]);
});

test("the same plan again changes nothing; a coupon for another plan is a 422; an unknown plan a 404", async () => {
  const before = await paidTotal();
  expect((await change({ planId: "pro" })).body.data).toMatchObject({ success: true, planId: pro.id, invoiceId: null });
  const paidForNothing = await change({ planId: "pro", txHash: `0x${"ab".repeat(32)}` });
  expect(paidForNothing.status).toBe(400);
  expect(paidForNothing.body.details["body.txHash"]).toContain("Nothing is owed");
  expect(await paidTotal()).toBe(before);
  await t.call("POST", "/dashboard/coupons", {
    ...(await admin()),
    body: { code: "BASICONLY", percentOff: "50", duration: "once", planIds: [basic.id] },
  });
  const coupon = await change({ planId: "pro", couponCode: "BASICONLY" });
  expect(coupon.status).toBe(422);
  expect(coupon.body.code).toBe("coupon_not_applicable");
  const unknown = await change({ planId: "nope" });
  expect(unknown.status).toBe(404);
  expect(unknown.body.code).toBe("plan_not_found");
  const bad = await change({ planId: "pro", billingPeriod: "weekly" });
  expect(bad.status).toBe(400);
  expect(bad.body.details).toBeDefined();
  expect(await paidTotal()).toBe(before);
});

test("a downgrade scheduled for the period's end (the dashboard's option): nothing now, the renewal applies it", async () => {
  const res = await t.call("POST", "/dashboard/companies/acme/plan", { ...(await admin()), body: { planId: "basic", effective: "period_end" } });
  expect(res.status).toBe(200);
  expect(res.body.data).toMatchObject({ effective: "period_end", planId: basic.id, invoiceId: null });
  let sub = await subscription();
  expect(sub.plan_id).toBe(pro.id);
  expect(sub.scheduled_plan_id).toBe(basic.id);
  expect(await companyPlan()).toBe(pro.id);
  await elapse(25 * DAY);
  await renewNow();
  sub = await subscription();
  expect(sub.plan_id).toBe(basic.id);
  expect(sub.scheduled_plan_id).toBeNull();
  expect(sub.price_amount).toBe(10_000_000n);
  expect(await companyPlan()).toBe(basic.id);
  await moneyAgrees();
});

test("an upgrade paid by a transfer (txHash): verified, PAID by it, nothing pulled", async () => {
  await elapse(5 * DAY);
  const p = (await preview({ planId: "pro" })).body.data;
  const total = BigInt(p.invoice.total.replace(".", ""));
  const mandateBefore = (await mandate()).remaining_amount;
  const short = await bed.anvil.client.writeContract({
    address: bed.usdc,
    abi: erc20Abi,
    functionName: "transfer",
    args: [bed.payee, total - 1n],
    account: bed.payer,
    chain: foundry,
  });
  await bed.anvil.client.waitForTransactionReceipt({ hash: short });
  unrecorded = total - 1n;
  const tooLittle = await change({ planId: "pro", txHash: short });
  expect(tooLittle.status).toBe(422);
  expect(tooLittle.body.code).toBe("amount_too_low");
  expect((await subscription()).plan_id).toBe(basic.id);

  const hash = await bed.anvil.client.writeContract({
    address: bed.usdc,
    abi: erc20Abi,
    functionName: "transfer",
    args: [bed.payee, total],
    account: bed.payer,
    chain: foundry,
  });
  await bed.anvil.client.waitForTransactionReceipt({ hash });
  const res = await change({ planId: "pro", txHash: hash });
  expect(res.status).toBe(200);
  const invoice = (await t.call("GET", `/invoices/${res.body.data.invoiceId}`, { token: team.keys.secret })).body.invoice;
  expect(invoice.status).toBe("PAID");
  expect(invoice.lineItems).toEqual(p.invoice.lineItems);
  expect((await mandate()).remaining_amount).toBe(mandateBefore);
  expect((await subscription()).plan_id).toBe(pro.id);
  // The same transfer cannot pay a second change.
  const replay = await change({ planId: "pro", billingPeriod: "yearly", effective: "now", txHash: hash });
  expect(replay.status).toBe(409);
  expect(replay.body.code).toBe("payment_replayed");
  // A txHash for a change that owes nothing now is refused, not silently ignored.
  const owesNothing = await change({ planId: "basic", effective: "now", txHash: hash });
  expect(owesNothing.status).toBe(400);
  expect(owesNothing.body.details["body.txHash"]).toBeDefined();
  // A downgrade switches now by default (the spec's route), its unused time to the credit balance.
  const down = await change({ planId: "basic" });
  expect(down.body.data).toMatchObject({ effective: "now", planId: basic.id, invoiceId: null });
  await moneyAgrees();
});

test("an immediate downgrade credits the unused time; the next renewal draws the credit balance", async () => {
  // The previous test ended on Basic after an immediate downgrade: its credit is in the balance.
  expect((await subscription()).plan_id).toBe(basic.id);
  const credit = await balance();
  expect(credit).toBeGreaterThan(0n);
  const payerBefore = await usdc(bed.payer.address);
  const sub = await subscription();
  await elapse(Math.ceil((sub.current_period_end.getTime() - t.clock.now()) / 1000) + 60);
  await renewNow();
  const renewed = await subscription();
  expect(renewed.period_index).toBe(sub.period_index + 1);
  // Basic at 10 USDC + 7.25% tax, less the credit (when the credit covers it all, nothing is pulled).
  const owed = 10_725_000n;
  const drawn = credit < owed ? credit : owed;
  expect(payerBefore - (await usdc(bed.payer.address))).toBe(owed - drawn);
  expect(await balance()).toBe(credit - drawn);
});

test("a change racing the renewal at the period's end: one of them wins, nothing is charged twice, nothing is left pending", async () => {
  const sub = await subscription();
  // The customer upgrades two seconds before the period ends while the renewal job runs just after it.
  await elapse(Math.floor((sub.current_period_end.getTime() - t.clock.now()) / 1000) - 2);
  const renewal = renewSubscription(t.deps.subscriptions, tenant, sub.id, new Date(sub.current_period_end.getTime() + 1000));
  const [res, renewed] = await Promise.all([change({ planId: "pro" }), renewal]);
  await elapse(5);
  await renewNow();
  const after = await subscription();
  expect(after.period_index).toBe(sub.period_index + 1);
  if (res.status === 200) {
    // The change came first: the renewal waited for its pull (pending, then the later run) or ran after it;
    // either way the new period is billed on the new plan.
    expect(["pending", "renewed"]).toContain(renewed);
    expect(after.plan_id).toBe(pro.id);
    expect(after.price_amount).toBe(30_000_000n);
  } else {
    // The renewal came first: the change found its pull in flight, or the period over.
    expect(renewed).toBe("renewed");
    expect(res.status).toBe(409);
    expect(["operation_in_progress", "plan_change_not_allowed"]).toContain(res.body.code);
    expect(after.plan_id).toBe(basic.id);
  }
  const pending = await t.db.sql`select id from subscription_charges where subscription_id = ${sub.id} and status = 'pending'`;
  expect(pending.length).toBe(0);
  const doubled = await t.db.sql`
    select period_start from subscription_charges
    where subscription_id = ${sub.id} and kind = 'renewal' and status = 'succeeded' group by period_start having count(*) > 1`;
  expect(doubled.length).toBe(0);
  await moneyAgrees();
});
