/**
 * Subscriptions under races, on anvil: requests and jobs that arrive together must still move money once.
 *  - two activations with one Idempotency-Key: the key store lets one run; the other is told it is in progress
 *    (the same key from two credentials of the team reaches the service twice: the activation's chain reference
 *    still makes it one pull, one token, one answer);
 *  - the same renewal run twice at once (two job runners, two scans): one pull, one PAID invoice, the period and
 *    the mandate moved once;
 *  - two activations of one company with different keys: one wins, the other is 409 subscription_exists.
 * Each test has its own payer (its own on-chain authorization) and company.
 */
import { periodInvoiceSource } from "../../src/modules/subscriptions/reference";
import { afterAll, expect, test } from "bun:test";
import type { HDAccount } from "viem/accounts";
import { createPlanRecord } from "../../src/modules/catalog/plans";
import { upsertCompany } from "../../src/modules/customers/identify";
import { setSettlementWallet } from "../../src/modules/invoices/settings/manage";
import { queueDueRenewals } from "../../src/modules/subscriptions/renew-jobs";
import { renewSubscription } from "../../src/modules/subscriptions/renew";
import { anvilSubscriptionBed, DAY } from "../helpers/anvil-subscriptions";
import { createTestApp, type CallResult } from "../helpers/app";
import { createTeamFixture } from "../helpers/fixtures";
import { drainJobs, queuedJobs } from "../helpers/jobs";
import { subscriptionState } from "../helpers/subscription-state";

const PRICE = 10_000_000n; // 10 USDC a month
const bed = await anvilSubscriptionBed();
afterAll(() => bed.stop());
const t = await createTestApp({ CHAIN_REGISTRY_FILE: bed.registryFile, SUBSCRIPTION_EVM_OPERATOR_KEY: bed.operatorKey });
const team = await createTeamFixture(t);
const tenant = { teamId: team.teamId, environment: "development" as const };
const actor = { kind: "test", id: "test", requestId: null };
const state = subscriptionState(t, bed, team.teamId);

await setSettlementWallet(t.db.sql, t.config.chains, tenant, actor, "anvil", { wallet: bed.payee }, new Date(t.clock.now()));
await createPlanRecord({ sql: t.db.sql, chains: t.config.chains, now: () => new Date(t.clock.now()) }, tenant, actor, {
  name: "Pro",
  prices: [{ billingPeriod: "monthly", amount: "10", currency: "USDC" }],
  onchainPlanIds: { anvil: "pro" },
});

/** The service's clock follows the chain's, so periods and the contract's windows agree. */
const syncClock = async () => t.clock.set((await bed.now()) * 1000);

async function activate(company: string, payer: HDAccount, key: string, token = team.keys.legacy) {
  const payerConsent = await bed.consentForKey(key, payer, company);
  return t.call("POST", "/subscriptions/activate", {
    token,
    headers: { "Idempotency-Key": key },
    body: { planId: "pro", paymentAccount: payer.address, company: { id: company }, subscriberEmail: `billing@${company}.test`, payerConsent },
  });
}

async function until(what: string, condition: () => Promise<boolean> | boolean, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(10);
  }
}

/** A fresh payer with one ACTIVE subscription for `company`, activated through the API. */
async function subscribed(company: string) {
  const { account } = await bed.newPayer();
  await syncClock();
  const res = await activate(company, account, `${company}-activate`);
  expect(res.status).toBe(200);
  return { payer: account.address, sub: await state.subscription(company) };
}

test("two activations with one Idempotency-Key at once: one pull and one token; the second is told the first is in progress, then replayed", async () => {
  const { account } = await bed.newPayer();
  const payer = account.address;
  await syncClock();
  const before = await state.chainOf(payer);

  // The chain holds the winner's transaction unmined, so the other request is answered while the winner is in flight.
  await bed.anvil.client.setAutomine(false);
  const answered: CallResult[] = [];
  let both: Promise<CallResult>[] = [];
  try {
    both = [activate("same-key", account, "same-key-1"), activate("same-key", account, "same-key-1")].map((p) =>
      p.then((res) => (answered.push(res), res)),
    );
    await until(
      "the loser's answer and the winner's transaction",
      async () => answered.length === 1 && (await bed.anvil.client.getTxpoolStatus()).pending === 1,
    );
    expect(answered[0]!.status).toBe(409);
    expect(answered[0]!.body).toEqual({ error: expect.any(String), code: "idempotency_key_in_use" });
  } finally {
    await bed.anvil.client.setAutomine(true);
    await bed.anvil.client.mine({ blocks: 1 });
  }
  const results = await Promise.all(both);
  expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
  const won = results.find((r) => r.status === 200)!.body.data;

  const after = await state.chainOf(payer);
  expect(after.mints.length - before.mints.length).toBe(1);
  expect(after.tokens).toBe(1n);
  expect(before.balance - after.balance).toBe(PRICE);
  expect(after.mints.at(-1)!.txHash).toBe(won.txHash);
  const sub = await state.subscription("same-key");
  expect(await state.subscriptions("same-key")).toHaveLength(1);
  expect(sub.status).toBe("ACTIVE");
  expect(await state.invoices(sub.id)).toMatchObject([{ status: "PAID", amount_paid: PRICE, tx_hashes: [won.txHash] }]);
  expect((await state.mandate(sub.id))!.remaining_amount).toBe(String(bed.terms.cap - PRICE));

  // Once the first is answered, the same key replays its answer and charges nothing.
  const replay = await activate("same-key", account, "same-key-1");
  expect(replay.status).toBe(200);
  expect(replay.headers.get("idempotent-replayed")).toBe("true");
  expect(replay.body.data).toEqual(won);
  expect(await bed.balanceOf(payer)).toBe(after.balance);
});

test("one Idempotency-Key from two credentials of the team at once: both reach the service, one pull, both get the same activation", async () => {
  // The key store scopes keys by credential, so both requests run; the activation's chain reference (team, company,
  // key) is the same for both, and the chain uses a reference once. A new company, then companies that exist already.
  for (const round of [1, 2, 3]) {
    const company = `two-credentials-${round}`;
    if (round > 1) await t.db.sql.begin((tx) => upsertCompany(tx, tenant, { id: company }));
    const { account } = await bed.newPayer();
    await syncClock();
    const before = await state.chainOf(account.address);
    const results = await Promise.all([
      activate(company, account, `${company}-key`, team.keys.legacy),
      activate(company, account, `${company}-key`, team.dashboardAdmin),
    ]);
    expect(results.map((r) => r.status)).toEqual([200, 200]);
    expect(results[1]!.body.data).toEqual(results[0]!.body.data);
    const after = await state.chainOf(account.address);
    expect(after.mints.length - before.mints.length).toBe(1);
    expect(before.balance - after.balance).toBe(PRICE);
    const sub = await state.subscription(company);
    expect(await state.subscriptions(company)).toHaveLength(1);
    expect(sub.status).toBe("ACTIVE");
    expect(sub.activation_tx_hash).toBe(results[0]!.body.data.txHash);
    expect(await state.invoices(sub.id)).toMatchObject([{ status: "PAID", tx_hashes: [sub.activation_tx_hash] }]);
    // The mandate starts from the cap the chain had before the one pull, and is lowered once.
    const mandate = (await state.mandate(sub.id))!;
    expect({ authorized: mandate.authorized_amount, remaining: mandate.remaining_amount }).toEqual({
      authorized: String(bed.terms.cap),
      remaining: String(bed.terms.cap - PRICE),
    });
  }
});

test("the same renewal run twice at once: one pull, one PAID invoice, the period and the mandate moved once", async () => {
  const { payer, sub } = await subscribed("renew-twice");
  await bed.elapse(31 * DAY);
  await syncClock();
  const before = await state.chainOf(payer);

  const outcomes = await Promise.all([
    renewSubscription(t.deps.subscriptions, tenant, sub.id, new Date(t.clock.now())),
    renewSubscription(t.deps.subscriptions, tenant, sub.id, new Date(t.clock.now())),
  ]);
  // The first locks the row and takes the period (its next attempt cleared); the second finds nothing due.
  expect(outcomes.sort()).toEqual(["renewed", "skipped"]);

  const after = await state.chainOf(payer);
  expect(after.pulls.length - before.pulls.length).toBe(1);
  expect(before.balance - after.balance).toBe(PRICE);
  const renewed = await state.subscription("renew-twice");
  expect(renewed).toMatchObject({ status: "ACTIVE", period_index: 1, dunning_attempts: 0 });
  expect(renewed.next_attempt_at).toEqual(renewed.current_period_end);
  const invoices = await state.invoices(sub.id);
  // One invoice per period, named by the period's start.
  expect(invoices.map((i) => [i.source_id, i.status])).toEqual([
    [periodInvoiceSource(sub.id, sub.current_period_start), "PAID"],
    [periodInvoiceSource(sub.id, renewed.current_period_start), "PAID"],
  ]);
  expect(invoices[1]!.tx_hashes).toEqual([after.pulls.at(-1)!.txHash]);
  expect((await state.mandate(sub.id))!.remaining_amount).toBe(String(bed.terms.cap - 2n * PRICE));
  expect((await state.charges(sub.id)).map((c) => [c.kind, c.status])).toEqual([
    ["activation", "succeeded"],
    ["renewal", "succeeded"],
  ]);
  expect(after.authorization[2]).toBe(2n * PRICE); // the contract's own count of what was pulled
});

test("two scans and two job runners at once renew a subscription once", async () => {
  const { payer, sub } = await subscribed("renew-two-runners");
  await bed.elapse(31 * DAY);
  await syncClock();
  const before = await state.chainOf(payer);
  const now = new Date(t.clock.now());

  await Promise.all([queueDueRenewals(t.deps.subscriptions, now), queueDueRenewals(t.deps.subscriptions, now)]);
  const queued = (await queuedJobs(t.db.sql)).filter((j) => j.task === "subscriptions.renew" && j.key === `renew:${sub.id}`);
  expect(queued).toHaveLength(1); // one job per subscription however often the scan runs

  const runs = await Promise.all([drainJobs(t), drainJobs(t)]);
  const ran = runs.flatMap((r) => r.completed).filter((j) => (j.payload as { subscriptionId?: string }).subscriptionId === sub.id);
  expect(ran).toHaveLength(1);
  expect(runs.flatMap((r) => r.failed)).toEqual([]);

  const after = await state.chainOf(payer);
  expect(after.pulls.length - before.pulls.length).toBe(1);
  expect(before.balance - after.balance).toBe(PRICE);
  expect(await state.subscription("renew-two-runners")).toMatchObject({ status: "ACTIVE", period_index: 1 });
  expect((await state.invoices(sub.id)).map((i) => i.status)).toEqual(["PAID", "PAID"]);
  expect((await state.mandate(sub.id))!.remaining_amount).toBe(String(bed.terms.cap - 2n * PRICE));

  // Scanned again at the same instant, it is not due (others, behind by more periods, may be): no job, no pull.
  await queueDueRenewals(t.deps.subscriptions, now);
  expect((await queuedJobs(t.db.sql)).filter((j) => j.key === `renew:${sub.id}`)).toEqual([]);
  await drainJobs(t);
  expect((await state.chainOf(payer)).pulls).toHaveLength(after.pulls.length);
});

test("two activations of one company with different keys at once: one wins, the other is 409 subscription_exists, one charge", async () => {
  const { account } = await bed.newPayer();
  const payer = account.address;
  await syncClock();
  const before = await state.chainOf(payer);

  const results = await Promise.all([activate("one-company", account, "one-company-a"), activate("one-company", account, "one-company-b")]);
  expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
  const lost = results.find((r) => r.status === 409)!;
  expect(lost.body).toEqual({ error: expect.any(String), code: "subscription_exists" });
  const won = results.find((r) => r.status === 200)!.body.data;

  const after = await state.chainOf(payer);
  expect(after.mints.length - before.mints.length).toBe(1);
  expect(before.balance - after.balance).toBe(PRICE);
  // The loser's reservation rolled back whole: one subscription, one invoice, one mandate.
  const subs = await state.subscriptions("one-company");
  expect(subs).toHaveLength(1);
  expect(subs[0]).toMatchObject({ status: "ACTIVE", activation_tx_hash: won.txHash, token_id: won.tokenId });
  expect(await state.invoices(subs[0]!.id)).toMatchObject([{ status: "PAID", tx_hashes: [won.txHash] }]);
  expect((await state.mandate(subs[0]!.id))!.remaining_amount).toBe(String(bed.terms.cap - PRICE));
  const drafts = await t.db.sql`select count(*)::int as n from invoices where team_id = ${team.teamId} and customer_wallet = ${payer}`;
  expect(drafts[0]!.n).toBe(1);
});
