/**
 * Plan changes at their edges, on anvil, each on its own company and payer: a coupon the subscription already
 * has is not redeemed again (its periods keep counting), a period whose invoice is still open is not credited,
 * and a subscription canceled while the change waited for its lock is not changed.
 */
import { afterAll, expect, test } from "bun:test";
import type { HDAccount } from "viem/accounts";
import { privateKeyToAccount } from "viem/accounts";
import { createPlanRecord } from "../../src/modules/catalog/plans";
import { setSettlementWallet } from "../../src/modules/invoices/settings";
import { renewSubscription } from "../../src/modules/subscriptions/renew";
import { createDashboardSession } from "../../src/modules/teams/service";
import { anvilSubscriptionBed, DAY } from "../helpers/anvil-subscriptions";
import { createTestApp } from "../helpers/app";
import { createTeamFixture } from "../helpers/fixtures";

const bed = await anvilSubscriptionBed({ terms: { periodAllowance: 100_000_000n, cap: 1_000_000_000n } });
afterAll(() => bed.stop());
const t = await createTestApp({ CHAIN_REGISTRY_FILE: bed.registryFile, SUBSCRIPTION_EVM_OPERATOR_KEY: bed.operatorKey });
const sql = t.db.sql;
const team = await createTeamFixture(t, "Edges");
const tenant = { teamId: team.teamId, environment: "development" as const };
const actor = { kind: "test", id: "test", requestId: null };
const catalog = { sql, chains: t.config.chains, now: () => new Date(t.clock.now()) };

await setSettlementWallet(sql, t.config.chains, tenant, actor, "anvil", { wallet: bed.payee }, new Date());
const monthly = (amount: string) => [{ billingPeriod: "monthly" as const, amount, currency: "USDC" }];
const basic = await createPlanRecord(catalog, tenant, actor, { name: "Basic", prices: monthly("10"), onchainPlanIds: { anvil: "basic" } });
const pro = await createPlanRecord(catalog, tenant, actor, { name: "Pro", prices: monthly("30"), onchainPlanIds: { anvil: "pro" } });

const syncClock = async () => t.clock.set((await bed.now()) * 1000);
async function elapse(seconds: number) {
  await bed.elapse(seconds);
  await syncClock();
}
const admin = async () => ({
  token: (
    await createDashboardSession(
      sql,
      { teamId: team.teamId, environment: "development", userEmail: "admin@test.dev", roles: ["admin"] },
      t.clock.now(),
    )
  ).session,
});
const embed = async (company: string) =>
  (await t.call("POST", "/api-keys/tokens", { token: team.keys.secret, body: { company: { id: company }, ttlSeconds: 900 } })).body.token;
const change = async (company: string, body: Record<string, unknown>) => t.call("POST", "/companies/plan", { token: await embed(company), body });
const subscriptionOf = async (company: string) =>
  (
    await sql`select s.* from subscriptions s join companies c on c.id = s.company_id
              where s.team_id = ${team.teamId} and c.external_id = ${company} and s.status <> 'CANCELED'`
  )[0]!;
const redemptions = async (code: string) =>
  (await sql`select redemptions from coupons where team_id = ${team.teamId} and code = ${code}`)[0]!.redemptions as number;
const balanceOf = async (company: string) =>
  BigInt(
    (
      await sql`select coalesce(sum(b.amount), 0)::text as s from customer_balance_entries b join companies c on c.id = b.company_id
                where b.team_id = ${team.teamId} and c.external_id = ${company}`
    )[0]!.s,
  );

/** A company with its own payer, subscribed to `plan` (an on-chain id). */
async function activate(company: string, plan: "basic" | "pro", couponCode?: string): Promise<HDAccount> {
  const { account } = await bed.newPayer({ periodAllowance: 100_000_000n, cap: 1_000_000_000n });
  await syncClock();
  const res = await t.call("POST", "/subscriptions/activate", {
    token: team.keys.legacy,
    body: { planId: plan, paymentAccount: account.address, company: { id: company }, ...(couponCode ? { couponCode } : {}) },
  });
  expect(res.status).toBe(200);
  return account;
}

test("POST /companies/plan: the coupon the subscription already has is not redeemed again, and its periods keep counting", async () => {
  await t.call("POST", "/dashboard/coupons", { ...(await admin()), body: { code: "FIRSTMONTH", percentOff: "50", duration: "once" } });
  await activate("again", "basic", "FIRSTMONTH");
  expect(await redemptions("FIRSTMONTH")).toBe(1);
  // The next period: the once-coupon is used up.
  const sub = await subscriptionOf("again");
  await elapse(Math.ceil((sub.current_period_end.getTime() - t.clock.now()) / 1000) + 60);
  expect(await renewSubscription(t.deps.subscriptions, tenant, sub.id, new Date(t.clock.now()))).toBe("renewed");
  await elapse(2 * DAY);
  const res = await change("again", { planId: basic.id, couponCode: "FIRSTMONTH", effective: "now" });
  expect(res.status).toBe(200);
  expect(res.body.data).toMatchObject({ planId: basic.id, invoiceId: null });
  expect(await redemptions("FIRSTMONTH")).toBe(1);
  expect(await balanceOf("again")).toBe(0n);
  const after = await subscriptionOf("again");
  expect(after.coupon_applied_at).toBe(sub.coupon_applied_at);
});

test("POST /companies/plan: a period whose invoice is still open (a deferred renewal) is not credited or prorated", async () => {
  await activate("deferred", "pro");
  const operator = privateKeyToAccount(bed.operatorKey).address;
  const gas = await bed.anvil.client.getBalance({ address: operator });
  await bed.anvil.client.setBalance({ address: operator, value: 0n });
  const sub = await subscriptionOf("deferred");
  await elapse(Math.ceil((sub.current_period_end.getTime() - t.clock.now()) / 1000) + 60);
  expect(await renewSubscription(t.deps.subscriptions, tenant, sub.id, new Date(t.clock.now()))).toBe("pending");
  await bed.anvil.client.setBalance({ address: operator, value: gas });
  const open = await subscriptionOf("deferred");
  expect(open.status).toBe("ACTIVE");
  const before = await balanceOf("deferred");
  const res = await change("deferred", { planId: basic.id, effective: "now" });
  expect(res.status).toBe(409);
  expect(res.body.code).toBe("plan_change_not_allowed");
  expect(await balanceOf("deferred")).toBe(before);
  expect((await subscriptionOf("deferred")).plan_id).toBe(pro.id);
});

const lockWaits = async () =>
  (await sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`)[0]!.n;

test("POST /companies/plan: a subscription canceled while the change waited for its lock is not changed", async () => {
  await activate("canceling", "pro");
  await elapse(2 * DAY);
  const sub = await subscriptionOf("canceling");
  const token = await embed("canceling");
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  let signal!: () => void;
  const isLocked = new Promise<void>((r) => (signal = r));
  // The cancel holds the row while the change quotes (unlocked: ACTIVE) and then waits for the lock.
  const cancel = sql.begin(async (tx) => {
    await tx`select id from subscriptions where id = ${sub.id} for update`;
    signal();
    await held;
    await tx`update subscriptions set status = 'CANCELED', canceled_at = now(), next_attempt_at = null where id = ${sub.id}`;
    await tx`update companies set active_plan_id = null where id = ${sub.company_id}`;
  });
  await isLocked;
  const changing = t.call("POST", "/companies/plan", { token, body: { planId: basic.id, effective: "now" } });
  for (let i = 0; i < 500 && (await lockWaits()) === 0; i++) await Bun.sleep(10);
  release();
  await cancel;
  const res = await changing;
  expect({ status: res.status, code: res.body.code }).toEqual({ status: 409, code: "plan_change_not_allowed" });
  const after = (await sql`select status, plan_id from subscriptions where id = ${sub.id}`)[0]!;
  expect(after).toEqual({ status: "CANCELED", plan_id: pro.id });
  expect((await sql`select active_plan_id from companies where id = ${sub.company_id}`)[0]!.active_plan_id).toBeNull();
  expect(await balanceOf("canceling")).toBe(0n);
});
