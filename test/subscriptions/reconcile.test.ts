/**
 * The chain is the source of truth (BILLING.md): when the database fails after the chain succeeded, or the chain's
 * answer is lost, the reconciliation job (`subscriptions.reconcile`, src/modules/subscriptions/reconcile.ts)
 * completes the records from the chain by the operation's reference, and nothing is charged twice.
 *
 * The database fails for real: a side connection holds `payments` locked against writes (only the recording step
 * writes there, after the chain operation landed), and the statement that waits on that lock is cancelled, as a
 * statement_timeout or lock_timeout would end it: the recording transaction rolls back. (Terminating the backend
 * instead would be truer to a crash, but postgres.js 3.4.9 then throws an uncaught TypeError from a write scheduled
 * on the dead socket, porsager/postgres#1208: the test process, like the service, would die of it.) The chain's answer is lost for real too: anvil holds the operator's
 * transaction unmined past the chain job's deadline (CHAIN_JOB_TIMEOUT_MS), then mines it late or drops it.
 */
import { afterAll, expect, test } from "bun:test";
import type { HDAccount } from "viem/accounts";
import { createSql } from "../../src/db/client";
import { enqueueJob } from "../../src/jobs/enqueue";
import { createPlanRecord } from "../../src/modules/catalog/plans";
import { setSettlementWallet } from "../../src/modules/invoices/settings/manage";
import { GIVE_UP_AFTER_MS, STALE_AFTER_MS } from "../../src/modules/subscriptions/reconcile";
import { renewSubscription } from "../../src/modules/subscriptions/renew";
import { anvilSubscriptionBed, DAY } from "../helpers/anvil-subscriptions";
import { createTestApp } from "../helpers/app";
import { createTeamFixture } from "../helpers/fixtures";
import { drainJobs } from "../helpers/jobs";
import { subscriptionState } from "../helpers/subscription-state";

const PRICE = 10_000_000n; // 10 USDC a month
/** Short, so an unmined transaction's job times out quickly; anvil answers a landed operation far sooner. */
const CHAIN_JOB_TIMEOUT_MS = 4_000;
const bed = await anvilSubscriptionBed();
afterAll(() => bed.stop());
const t = await createTestApp({
  CHAIN_REGISTRY_FILE: bed.registryFile,
  SUBSCRIPTION_EVM_OPERATOR_KEY: bed.operatorKey,
  CHAIN_JOB_TIMEOUT_MS: String(CHAIN_JOB_TIMEOUT_MS),
});
const team = await createTeamFixture(t);
const tenant = { teamId: team.teamId, environment: "development" as const };
const actor = { kind: "test", id: "test", requestId: null };
const state = subscriptionState(t, bed, team.teamId);

await setSettlementWallet(t.db.sql, t.config.chains, tenant, actor, "anvil", { wallet: bed.payee }, new Date(t.clock.now()));
const plan = await createPlanRecord({ sql: t.db.sql, chains: t.config.chains, now: () => new Date(t.clock.now()) }, tenant, actor, {
  name: "Pro",
  prices: [{ billingPeriod: "monthly", amount: "10", currency: "USDC" }],
  onchainPlanIds: { anvil: "pro" },
});

/** The service's clock follows the chain's, so periods and the contract's windows agree. */
const syncClock = async () => t.clock.set((await bed.now()) * 1000);
const later = (ms: number) => t.clock.set(t.clock.now() + ms);

async function activate(company: string, payer: HDAccount, key: string) {
  const payerConsent = await bed.consentForKey(key, payer, company);
  return t.call("POST", "/subscriptions/activate", {
    token: team.keys.legacy,
    headers: { "Idempotency-Key": key },
    body: { planId: "pro", paymentAccount: payer.address, company: { id: company }, subscriberEmail: `billing@${company}.test`, payerConsent },
  });
}

/** The reconciliation job, run as the queue runs it (its cron tick, here queued by hand). */
async function reconcile() {
  await enqueueJob(t.db.sql, "subscriptions.reconcile", {});
  const run = await drainJobs(t);
  expect(run.failed).toEqual([]);
  expect(run.completed.map((j) => j.task)).toContain("subscriptions.reconcile");
}

async function until(what: string, condition: () => Promise<boolean> | boolean, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(10);
  }
}

/**
 * Runs `work` while a side connection holds `table` locked against writes (SHARE mode: reads and row locks pass).
 * The first statement that waits on the lock is cancelled (its transaction fails and rolls back), then the lock is
 * released.
 */
async function databaseFailsOnWriteTo<T>(table: "payments", work: () => Promise<T>): Promise<{ ok: true; value: T } | { ok: false; error: unknown }> {
  const side = createSql(t.db.url, { max: 2 });
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let holderPid = 0;
  const holder = side.begin(async (tx) => {
    await tx.unsafe(`lock table ${table} in share mode`);
    holderPid = (await tx`select pg_backend_pid() as pid`)[0]!.pid;
    await released;
  });
  try {
    await until("the side lock", () => holderPid !== 0);
    const running = work().then(
      (value) => ({ ok: true as const, value }),
      (error: unknown) => ({ ok: false as const, error }),
    );
    let victim = 0;
    await until(`a write to ${table} waiting on the lock`, async () => {
      victim = (await side`select pid from pg_stat_activity where ${holderPid} = any(pg_blocking_pids(pid))`)[0]?.pid ?? 0;
      return victim !== 0;
    });
    await side`select pg_cancel_backend(${victim})`;
    return await running;
  } finally {
    release();
    await holder;
    await side.end({ timeout: 5 });
  }
}

test("the database fails after the activation's pull landed: the reconciliation job completes the records from the chain, charging nothing more", async () => {
  const { account } = await bed.newPayer();
  const payer = account.address;
  await syncClock();
  const before = await state.chainOf(payer);

  const outcome = await databaseFailsOnWriteTo("payments", () => activate("db-fails", account, "db-fails-1"));
  expect(outcome.ok && outcome.value.status).toBe(500);
  // The chain pulled and minted; the database kept only the reservation.
  const landed = await state.chainOf(payer);
  expect(landed.mints.length - before.mints.length).toBe(1);
  expect(before.balance - landed.balance).toBe(PRICE);
  const txHash = landed.mints.at(-1)!.txHash;
  const tokenId = String(landed.mints.at(-1)!.args.tokenId);
  let sub = await state.subscription("db-fails");
  expect(sub).toMatchObject({ status: "INCOMPLETE", token_id: null, activation_tx_hash: null });
  expect(await state.charges(sub.id)).toEqual([{ kind: "activation", status: "pending", tx_hash: null, amount: String(PRICE) }]);
  expect(await state.invoices(sub.id)).toMatchObject([{ status: "DRAFT", amount_paid: 0n, tx_hashes: [] }]);
  expect(await state.mandate(sub.id)).toBeUndefined();
  expect(await state.companyPlan("db-fails")).toBeNull();

  // Before it is stale the job leaves it alone (its request may still be finishing it).
  await reconcile();
  expect((await state.subscription("db-fails")).status).toBe("INCOMPLETE");

  later(STALE_AFTER_MS + 1_000);
  await reconcile();
  sub = await state.subscription("db-fails");
  expect(sub).toMatchObject({ status: "ACTIVE", token_id: tokenId, activation_tx_hash: txHash, period_index: 0 });
  expect(await state.charges(sub.id)).toEqual([{ kind: "activation", status: "succeeded", tx_hash: txHash, amount: String(PRICE) }]);
  expect(await state.invoices(sub.id)).toMatchObject([{ status: "PAID", amount_paid: PRICE, tx_hashes: [txHash] }]);
  const mandate = (await state.mandate(sub.id))!;
  expect(mandate).toMatchObject({ status: "ACTIVE", authorized_amount: String(bed.terms.cap), remaining_amount: String(bed.terms.cap - PRICE) });
  expect(await state.companyPlan("db-fails")).toBe(plan.id);

  // Again, and a retry with the request's key: the same activation, nothing more on chain or in the records.
  await reconcile();
  const retry = await activate("db-fails", account, "db-fails-1");
  expect(retry.status).toBe(200);
  expect(retry.body.data).toMatchObject({ tokenId, txHash });
  const after = await state.chainOf(payer);
  expect(after.balance).toBe(landed.balance);
  expect(after.mints).toHaveLength(landed.mints.length);
  expect(after.authorization[2]).toBe(PRICE); // the contract's count of what the authorization paid
  expect(await state.invoices(sub.id)).toHaveLength(1);
  expect((await state.mandate(sub.id))!.remaining_amount).toBe(String(bed.terms.cap - PRICE));
});

test("the database fails after the activation's pull landed: a retry with the same Idempotency-Key completes it, charging nothing more", async () => {
  const { account } = await bed.newPayer();
  const payer = account.address;
  await syncClock();
  const before = await state.chainOf(payer);

  const outcome = await databaseFailsOnWriteTo("payments", () => activate("db-fails-retry", account, "db-fails-retry-1"));
  expect(outcome.ok && outcome.value.status).toBe(500);
  const landed = await state.chainOf(payer);
  expect(before.balance - landed.balance).toBe(PRICE);

  // The failed answer was not kept: the retry runs, finds its reservation and the chain's operation under its reference.
  const retry = await activate("db-fails-retry", account, "db-fails-retry-1");
  expect(retry.status).toBe(200);
  expect(retry.body.data.txHash).toBe(landed.mints.at(-1)!.txHash);
  const after = await state.chainOf(payer);
  expect(after.balance).toBe(landed.balance);
  expect(after.mints).toHaveLength(landed.mints.length);
  const sub = await state.subscription("db-fails-retry");
  expect(sub.status).toBe("ACTIVE");
  expect(await state.invoices(sub.id)).toMatchObject([{ status: "PAID", amount_paid: PRICE, tx_hashes: [retry.body.data.txHash] }]);
  // The mandate agrees with the chain: the cap, less the one pull (the contract's own count).
  const mandate = (await state.mandate(sub.id))!;
  expect({ authorized: mandate.authorized_amount, remaining: mandate.remaining_amount }).toEqual({
    authorized: String(bed.terms.cap),
    remaining: String(bed.terms.cap - after.authorization[2]!),
  });
  expect(after.authorization[2]).toBe(PRICE);
});

test("the database fails after a renewal's pull landed: the reconciliation job records the payment, the period and the mandate once", async () => {
  const { account } = await bed.newPayer();
  const payer = account.address;
  await syncClock();
  expect((await activate("renew-db-fails", account, "renew-db-fails-1")).status).toBe(200);
  const sub = await state.subscription("renew-db-fails");
  await bed.elapse(31 * DAY);
  await syncClock();
  const before = await state.chainOf(payer);

  const outcome = await databaseFailsOnWriteTo("payments", () => renewSubscription(t.deps.subscriptions, tenant, sub.id, new Date(t.clock.now())));
  expect(outcome.ok).toBe(false);
  const landed = await state.chainOf(payer);
  expect(landed.pulls.length - before.pulls.length).toBe(1);
  expect(before.balance - landed.balance).toBe(PRICE);
  const txHash = landed.pulls.at(-1)!.txHash;
  // Prepared and committed before the chain was asked: the period advanced and its invoice issued, the pull pending.
  expect(await state.subscription("renew-db-fails")).toMatchObject({ status: "ACTIVE", period_index: 1, next_attempt_at: null });
  expect((await state.invoices(sub.id)).map((i) => i.status)).toEqual(["PAID", "ISSUED"]);
  expect((await state.charges(sub.id)).map((c) => [c.kind, c.status])).toEqual([
    ["activation", "succeeded"],
    ["renewal", "pending"],
  ]);
  expect((await state.mandate(sub.id))!.remaining_amount).toBe(String(bed.terms.cap - PRICE));

  // The renewal run again meanwhile (its job retried) sees the pending pull and sends nothing.
  expect(await renewSubscription(t.deps.subscriptions, tenant, sub.id, new Date(t.clock.now()))).toBe("skipped");
  later(STALE_AFTER_MS + 1_000);
  await reconcile();
  const renewed = await state.subscription("renew-db-fails");
  expect(renewed).toMatchObject({ status: "ACTIVE", period_index: 1, dunning_attempts: 0 });
  expect(renewed.next_attempt_at).toEqual(renewed.current_period_end);
  const invoices = await state.invoices(sub.id);
  expect(invoices.map((i) => i.status)).toEqual(["PAID", "PAID"]);
  expect(invoices[1]!.tx_hashes).toEqual([txHash]);
  expect((await state.charges(sub.id)).map((c) => [c.kind, c.status, c.tx_hash])).toEqual([
    ["activation", "succeeded", expect.any(String)],
    ["renewal", "succeeded", txHash],
  ]);
  expect((await state.mandate(sub.id))!.remaining_amount).toBe(String(bed.terms.cap - 2n * PRICE));

  await reconcile();
  const after = await state.chainOf(payer);
  expect(after.balance).toBe(landed.balance);
  expect(after.pulls).toHaveLength(landed.pulls.length);
  expect(after.authorization[2]).toBe(2n * PRICE);
  expect((await state.mandate(sub.id))!.remaining_amount).toBe(String(bed.terms.cap - 2n * PRICE));
});

/** Activates while anvil holds the operator's transaction unmined past the chain job's deadline: 503, outcome unknown. */
async function activationWithLostAnswer(company: string, account: HDAccount) {
  await bed.anvil.client.setAutomine(false);
  try {
    const res = await activate(company, account, `${company}-1`);
    expect(res.status).toBe(503);
    expect(res.body.code).toBe("chain_outcome_unknown");
    expect(res.headers.get("retry-after")).toBe("30");
    expect((await bed.anvil.client.getTxpoolStatus()).pending).toBe(1);
  } catch (error) {
    await bed.anvil.client.setAutomine(true);
    throw error;
  }
  const sub = await state.subscription(company);
  expect(sub.status).toBe("INCOMPLETE");
  expect((await state.charges(sub.id)).map((c) => c.status)).toEqual(["pending"]);
  return sub;
}

test("an activation whose answer was lost and whose transaction landed late is completed, even past the give-up time", async () => {
  const { account } = await bed.newPayer();
  const payer = account.address;
  await syncClock();
  const before = await state.chainOf(payer);
  const sub = await activationWithLostAnswer("lands-late", account);

  await bed.anvil.client.setAutomine(true);
  await bed.anvil.client.mine({ blocks: 1 });
  const landed = await state.chainOf(payer);
  expect(landed.mints.length - before.mints.length).toBe(1);

  later(GIVE_UP_AFTER_MS + 60_000);
  await reconcile();
  expect(await state.subscription("lands-late")).toMatchObject({ status: "ACTIVE", activation_tx_hash: landed.mints.at(-1)!.txHash });
  expect(await state.invoices(sub.id)).toMatchObject([{ status: "PAID", tx_hashes: [landed.mints.at(-1)!.txHash] }]);
  expect((await state.mandate(sub.id))!.remaining_amount).toBe(String(bed.terms.cap - PRICE));
  expect(before.balance - (await state.chainOf(payer)).balance).toBe(PRICE);
});

test("an activation whose answer was lost and whose transaction never landed ends INCOMPLETE_EXPIRED only past the give-up time, nothing charged", async () => {
  const { account } = await bed.newPayer();
  const payer = account.address;
  await syncClock();
  const before = await state.chainOf(payer);
  const sub = await activationWithLostAnswer("never-lands", account);

  // The node forgets the transaction (evicted from its pool): it will never land.
  await bed.anvil.client.request({ method: "anvil_dropAllTransactions" } as never);
  await bed.anvil.client.setAutomine(true);
  expect((await bed.anvil.client.getTxpoolStatus()).pending).toBe(0);

  // Stale but not given up: the job waits (a transaction may still land).
  later(STALE_AFTER_MS + 1_000);
  await reconcile();
  expect((await state.subscription("never-lands")).status).toBe("INCOMPLETE");

  later(GIVE_UP_AFTER_MS);
  await reconcile();
  const ended = await state.subscription("never-lands");
  expect(ended).toMatchObject({ status: "INCOMPLETE_EXPIRED", token_id: null, next_attempt_at: null });
  expect(await state.charges(sub.id)).toMatchObject([{ status: "failed" }]);
  expect(await state.invoices(sub.id)).toMatchObject([{ status: "VOID", amount_paid: 0n }]);
  expect(await state.mandate(sub.id)).toBeUndefined();
  expect(await state.companyPlan("never-lands")).toBeNull();
  const after = await state.chainOf(payer);
  expect(after.balance).toBe(before.balance);
  expect(after.mints).toHaveLength(before.mints.length);

  // The company is free to subscribe again, with a new key: one pull.
  await syncClock();
  const again = await activate("never-lands", account, "never-lands-2");
  expect(again.status).toBe(200);
  expect(before.balance - (await state.chainOf(payer)).balance).toBe(PRICE);
});
