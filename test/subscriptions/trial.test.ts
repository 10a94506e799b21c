/**
 * A trial on anvil: activation pulls nothing but mints the token and records the mandate (TRIALING, the
 * company on the plan at once); a plan change during the trial switches without proration (nothing was
 * paid); the trial's end starts period 0, billed on the plan chosen, pulled through the mandate.
 */
import { afterAll, expect, test } from "bun:test";
import { createPlanRecord } from "../../src/modules/catalog/plans";
import { setSettlementWallet } from "../../src/modules/invoices/settings/manage";
import { queueDueRenewals } from "../../src/modules/subscriptions/renew-jobs";
import { anvilSubscriptionBed, DAY } from "../helpers/anvil-subscriptions";
import { createTestApp } from "../helpers/app";
import { createTeamFixture } from "../helpers/fixtures";
import { drainJobs } from "../helpers/jobs";

const bed = await anvilSubscriptionBed({ terms: { periodAllowance: 50_000_000n } });
afterAll(() => bed.stop());
const t = await createTestApp({ CHAIN_REGISTRY_FILE: bed.registryFile, SUBSCRIPTION_EVM_OPERATOR_KEY: bed.operatorKey });
const team = await createTeamFixture(t);
const tenant = { teamId: team.teamId, environment: "development" as const };
const actor = { kind: "test", id: "test", requestId: null };
const catalog = { sql: t.db.sql, chains: t.config.chains, now: () => new Date(t.clock.now()) };
await setSettlementWallet(t.db.sql, t.config.chains, tenant, actor, "anvil", { wallet: bed.payee }, new Date(t.clock.now()));
const monthly = (amount: string) => [{ billingPeriod: "monthly" as const, amount, currency: "USDC" }];
await createPlanRecord(catalog, tenant, actor, { name: "Basic", trialDays: 14, prices: monthly("10"), onchainPlanIds: { anvil: "basic" } });
const pro = await createPlanRecord(catalog, tenant, actor, { name: "Pro", prices: monthly("30"), onchainPlanIds: { anvil: "pro" } });

const subscription = async () => (await t.db.sql`select * from subscriptions where team_id = ${team.teamId}`)[0]!;
const invoices = async () => [...(await t.db.sql`select status, total from invoices where team_id = ${team.teamId} order by created_at`)];
const companyPlan = async () =>
  (await t.db.sql`select active_plan_id from companies where team_id = ${team.teamId} and external_id = 'acme'`)[0]!.active_plan_id;

test("a 14-day trial: nothing pulled, TRIALING; a change during it switches freely; its end bills period 0 of the new plan", async () => {
  const start = await bed.now();
  t.clock.set(start * 1000);
  const payerStart = await bed.balanceOf(bed.payer.address);
  const res = await t.call("POST", "/subscriptions/activate", {
    token: team.keys.legacy,
    body: { planId: "basic", paymentAccount: bed.payer.address, company: { id: "acme" }, payerConsent: (await bed.consent(bed.payer, "acme")).body },
  });
  expect(res.status).toBe(200);
  expect(await bed.read<string>("ownerOf", [BigInt(res.body.data.tokenId)])).toBe(bed.payer.address);
  let sub = await subscription();
  expect(sub.status).toBe("TRIALING");
  expect(sub.trial_end.getTime()).toBe(start * 1000 + 14 * DAY * 1000);
  expect(sub.current_period_end.getTime()).toBe(sub.trial_end.getTime());
  expect(await bed.balanceOf(bed.payer.address)).toBe(payerStart);
  expect(await invoices()).toEqual([]);
  expect(await companyPlan()).not.toBeNull();

  const embed = (await t.call("POST", "/api-keys/tokens", { token: team.keys.secret, body: { company: { id: "acme" } } })).body.token;
  const changed = await t.call("POST", "/companies/plan", { token: embed, body: { planId: "pro" } });
  expect(changed.status).toBe(200);
  expect(changed.body.data).toMatchObject({ success: true, planId: pro.id, status: "TRIALING", effective: "now", invoiceId: null });
  sub = await subscription();
  expect(sub.plan_id).toBe(pro.id);
  expect(sub.current_period_end.getTime()).toBe(sub.trial_end.getTime());
  expect(await companyPlan()).toBe(pro.id);
  expect(await bed.balanceOf(bed.payer.address)).toBe(payerStart);

  await bed.elapse(14 * DAY + 60);
  t.clock.set((await bed.now()) * 1000);
  await queueDueRenewals(t.deps.subscriptions, new Date(t.clock.now()));
  await drainJobs(t);
  sub = await subscription();
  expect(sub.status).toBe("ACTIVE");
  expect(sub.period_index).toBe(0);
  expect(sub.current_period_start.getTime()).toBe(sub.trial_end.getTime());
  expect(await invoices()).toEqual([{ status: "PAID", total: 30_000_000n }]);
  expect(await bed.balanceOf(bed.payer.address)).toBe(payerStart - 30_000_000n);
});
