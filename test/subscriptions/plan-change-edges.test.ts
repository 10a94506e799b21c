/**
 * Plan changes at their edges, on anvil, each on its own company and payer: a transfer someone else made does
 * not pay a customer's change, one transfer submitted twice at once changes the plan once and never answers 500,
 * a scheduled change can be undone, retried or replaced without keeping a coupon it will not use, a coupon the
 * subscription already has is not redeemed again (its periods keep counting), a period whose invoice is still
 * open is not credited, a subscription canceled while the change waited for its lock is not changed, and a
 * change never deadlocks with a transaction that locks the company, the mandate or the transfer's hash before
 * writing its audit entry.
 */
import { expect, test } from "bun:test";
import { erc20Abi, type Address } from "viem";
import type { HDAccount } from "viem/accounts";
import { privateKeyToAccount } from "viem/accounts";
import { foundry } from "viem/chains";
import { lockTransaction } from "../../src/modules/transaction-claims/repo";
import { recordAudit } from "../../src/modules/audit/repo";
import { createPlanRecord } from "../../src/modules/catalog/plans/edit";
import { renewSubscription } from "../../src/modules/subscriptions/renewal/renew";
import { createDashboardSession } from "../../src/modules/teams/automation-session";
import { DAY } from "../helpers/chains/anvil-subscriptions";
import { anvilSubscriptionApp, monthly } from "../helpers/subscriptions";

const { bed, t, team, tenant, actor, catalog, syncClock } = await anvilSubscriptionApp({
  terms: { periodAllowance: 100_000_000n, cap: 1_000_000_000n },
  teamName: "Edges",
});
const sql = t.db.sql;
const basic = await createPlanRecord(catalog, tenant, actor, { name: "Basic", prices: monthly("10"), onchainPlanIds: { anvil: "basic" } });
const pro = await createPlanRecord(catalog, tenant, actor, { name: "Pro", prices: monthly("30"), onchainPlanIds: { anvil: "pro" } });
const max = await createPlanRecord(catalog, tenant, actor, { name: "Max", prices: monthly("60") });

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
    body: {
      planId: plan,
      paymentAccount: account.address,
      company: { id: company },
      payerConsent: (await bed.consent(account, company)).body,
      ...(couponCode ? { couponCode } : {}),
    },
  });
  expect(res.status).toBe(200);
  return account;
}

async function transfer(from: HDAccount, to: Address, amount: bigint) {
  const hash = await bed.anvil.client.writeContract({
    address: bed.usdc,
    abi: erc20Abi,
    functionName: "transfer",
    args: [to, amount],
    account: from,
    chain: foundry,
  });
  await bed.anvil.client.waitForTransactionReceipt({ hash });
  return hash;
}

const previewTotal = async (company: string, body: Record<string, unknown>) => {
  const res = await t.call("POST", `/dashboard/companies/${company}/plan/preview`, { ...(await admin()), body });
  expect(res.status).toBe(200);
  return BigInt(res.body.data.invoice.total.replace(".", ""));
};

test("POST /companies/plan: a transfer another wallet made to the settlement wallet does not pay the customer's change", async () => {
  await activate("thief", "basic");
  await elapse(3 * DAY);
  const total = await previewTotal("thief", { planId: pro.id });
  // Someone else's payment to the merchant, visible to anyone on chain.
  const stranger = (await bed.newPayer()).account;
  const theirs = await transfer(stranger, bed.payee, total);
  const res = await change("thief", { planId: pro.id, txHash: theirs });
  expect(res.status).toBe(422);
  expect(res.body.code).toBe("wrong_payer");
  expect((await subscriptionOf("thief")).plan_id).toBe(basic.id);
  expect((await sql`select count(*)::int as n from payments where tx_hash = ${theirs}`)[0]!.n).toBe(0);
});

test("POST /companies/plan: one transfer submitted twice at once upgrades once, never a 500", async () => {
  const payer = await activate("twice", "basic");
  await elapse(3 * DAY);
  const total = await previewTotal("twice", { planId: pro.id });
  const hash = await transfer(payer, bed.payee, total);
  const answers = await Promise.all([change("twice", { planId: pro.id, txHash: hash }), change("twice", { planId: pro.id, txHash: hash })]);
  // The one that locks second finds the change made: a 409, or, when it quoted after the first committed, the
  // plan it asks is already the company's, so its txHash pays nothing: a 400 naming body.txHash.
  const [first, second] = [...answers].sort((a, b) => a.status - b.status);
  expect(first!.status).toBe(200);
  expect(first!.body.data.invoiceId).toMatch(/^in_/);
  if (second!.status === 400) expect(Object.keys(second!.body.details)).toEqual(["body.txHash"]);
  else expect({ status: second!.status, keys: Object.keys(second!.body).sort() }).toEqual({ status: 409, keys: ["code", "error"] });
  expect((await subscriptionOf("twice")).plan_id).toBe(pro.id);
  const invoices = await sql`select status from invoices where team_id = ${team.teamId} and metadata->>'planChange' is not null
                             and company_id = (select company_id from subscriptions where id = ${(await subscriptionOf("twice")).id})`;
  expect(invoices.map((i) => i.status)).toEqual(["PAID"]);
});

test("POST /companies/plan: the current plan again undoes a scheduled downgrade; a scheduled change retried redeems its coupon once, replaced gives it back, applied keeps it", async () => {
  await activate("undo", "pro");
  await elapse(2 * DAY);
  await t.call("POST", "/dashboard/coupons", { ...(await admin()), body: { code: "LATER", percentOff: "10", duration: "forever" } });
  const scheduled = await change("undo", { planId: basic.id, couponCode: "LATER", effective: "period_end" });
  expect(scheduled.body.data).toMatchObject({ effective: "period_end", planId: basic.id });
  expect(await redemptions("LATER")).toBe(1);
  // The same request again (a retry without an Idempotency-Key) schedules the same change: no second redemption.
  expect((await change("undo", { planId: basic.id, couponCode: "LATER", effective: "period_end" })).status).toBe(200);
  expect(await redemptions("LATER")).toBe(1);
  const undone = await change("undo", { planId: pro.id });
  expect(undone.status).toBe(200);
  expect(undone.body.data).toMatchObject({ planId: pro.id, effective: "now", invoiceId: null });
  const sub = await subscriptionOf("undo");
  expect({ plan: sub.scheduled_plan_id, period: sub.scheduled_billing_period, coupon: sub.scheduled_coupon_id }).toEqual({
    plan: null,
    period: null,
    coupon: null,
  });
  // The coupon redeemed for the change that will not happen is given back.
  expect(await redemptions("LATER")).toBe(0);
  const audited = await sql`select action from audit_log where team_id = ${team.teamId} and resource_id = ${sub.id} order by chain_seq`;
  expect(audited.map((a) => a.action)).toContain("subscription.unschedule_plan_change");

  // Replaced by a change made now: the scheduled change's coupon is given back too.
  expect((await change("undo", { planId: basic.id, couponCode: "LATER", effective: "period_end" })).body.data.effective).toBe("period_end");
  expect(await redemptions("LATER")).toBe(1);
  const now = await change("undo", { planId: basic.id, effective: "now" });
  expect(now.body.data).toMatchObject({ effective: "now", planId: basic.id });
  expect(await redemptions("LATER")).toBe(0);
  expect((await subscriptionOf("undo")).scheduled_plan_id).toBeNull();

  // Taking effect, it keeps its redemption: the renewal applies the plan and the coupon.
  expect((await change("undo", { planId: pro.id, couponCode: "LATER", effective: "period_end" })).body.data.effective).toBe("period_end");
  expect(await redemptions("LATER")).toBe(1);
  const before = await subscriptionOf("undo");
  await elapse(Math.ceil((before.current_period_end.getTime() - t.clock.now()) / 1000) + 60);
  expect(await renewSubscription(t.deps.subscriptions, tenant, before.id, new Date(t.clock.now()))).toBe("renewed");
  const renewed = await subscriptionOf("undo");
  expect({ plan: renewed.plan_id, coupon: renewed.coupon_id, scheduled: renewed.scheduled_coupon_redemption_id }).toEqual({
    plan: pro.id,
    coupon: before.scheduled_coupon_id,
    scheduled: null,
  });
  expect(await redemptions("LATER")).toBe(1);
});

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

/**
 * Runs `run` (a plan change) while another transaction locks what `lock` locks (once `ready` says so, then
 * `locked` runs) and then writes an audit entry, as PATCH /companies/{id}, a mandate revoke or an invoice payment
 * proof do. Both must succeed: a cycle between their locks would end one of them with a deadlock error.
 */
async function raceWithAuditor(
  lock: (tx: typeof sql) => Promise<unknown>,
  run: () => Promise<{ status: number }>,
  hooks: { ready?: () => Promise<boolean>; locked?: () => Promise<unknown> } = {},
) {
  // Without a `ready` hook the other transaction locks first, then the change starts (it must wait on the lock);
  // with one, the change starts first and the lock is taken once it is ready.
  let changing: Promise<{ status: number }> | null = hooks.ready ? run() : null;
  let answered = false;
  changing?.finally(() => (answered = true));
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  let signal!: () => void;
  const isLocked = new Promise<void>((r) => (signal = r));
  const other = sql.begin(async (tx) => {
    while (hooks.ready && !(await hooks.ready())) {
      if (answered) throw new Error(`the change answered ${(await changing!).status} before the race`);
      await Bun.sleep(2);
    }
    await lock(tx as unknown as typeof sql);
    signal();
    await held;
    await recordAudit(tx, { ...tenant, actor, action: "test.audit", resourceType: "test", resourceId: "x" });
  });
  await isLocked;
  if (!changing) {
    changing = run();
    changing.finally(() => (answered = true));
  }
  await hooks.locked?.();
  // Until the change waits on a lock (the row or hash the other transaction holds), or has answered.
  let waited = false;
  for (let i = 0; i < 1000 && !answered && !waited; i++) {
    waited = (await lockWaits()) > 0;
    if (!waited) await Bun.sleep(10);
  }
  expect(waited).toBe(true); // the race happened
  release();
  const [res, otherDone] = await Promise.allSettled([changing!, other]);
  expect(otherDone.status).toBe("fulfilled");
  expect(res.status).toBe("fulfilled");
  return (res as PromiseFulfilledResult<{ status: number }>).value;
}

/**
 * A change pulled through the mandate whose pull waits to be mined (automine off): `lock` runs in another
 * transaction between the pending operation and its outcome, then blocks are mined until the outcome's
 * transaction waits on that lock.
 */
async function pullRacingAuditor(company: string, body: Record<string, unknown>, lock: (tx: typeof sql) => Promise<unknown>) {
  const { id: subId } = await subscriptionOf(company);
  const token = await embed(company);
  const pending = async () =>
    (await sql`select 1 from subscription_charges where subscription_id = ${subId} and kind = 'proration' and status = 'pending'`).length > 0;
  await bed.anvil.client.setAutomine(false);
  try {
    return await raceWithAuditor(lock, () => t.call("POST", "/companies/plan", { token, body }), {
      ready: pending,
      locked: async () => {
        for (let i = 0; i < 200 && (await pending()) && (await lockWaits()) === 0; i++) {
          await bed.anvil.client.mine({ blocks: 1 });
          await Bun.sleep(20);
        }
      },
    });
  } finally {
    await bed.anvil.client.setAutomine(true);
  }
}

test("a change pulled through the mandate never deadlocks with a transaction that locked the company or the mandate before auditing", async () => {
  await activate("locks", "basic");
  await elapse(2 * DAY);
  const { company_id: companyId, id: subId } = await subscriptionOf("locks");
  const viaCompany = await pullRacingAuditor("locks", { planId: pro.id }, (tx) => tx`select id from companies where id = ${companyId} for update`);
  expect(viaCompany.status).toBe(200);
  await elapse(DAY);
  const viaMandate = await pullRacingAuditor(
    "locks",
    { planId: max.id },
    (tx) => tx`select id from mandates where subscription_id = ${subId} for update`,
  );
  expect(viaMandate.status).toBe(200);
});

test("a change paid by txHash never deadlocks with a transaction that locked the hash before auditing", async () => {
  const payer = await activate("hashlock", "basic");
  await elapse(2 * DAY);
  const hash = await transfer(payer, bed.payee, await previewTotal("hashlock", { planId: pro.id }));
  const token = await embed("hashlock");
  const res = await raceWithAuditor(
    (tx) => lockTransaction(tx, "anvil", hash),
    () => t.call("POST", "/companies/plan", { token, body: { planId: pro.id, txHash: hash } }),
  );
  expect(res.status).toBe(200);
});
