/**
 * Renewals that recover. A renewal our side cannot make (the operator account has no gas:
 * subscriptions_not_configured) is not the payer's failure: no dunning step is spent, the subscription stays
 * ACTIVE, and it is tried again an hour later under a new chain reference; once the operator is funded it
 * renews. A lapsed approval (the authorization's end passed) fails the renewal and expires the mandate; the
 * payer approving again revives it at the next dunning retry, which pulls.
 */
import { afterAll, expect, test } from "bun:test";
import { privateKeyToAccount } from "viem/accounts";
import { createPlanRecord } from "../../src/modules/catalog/plans";
import { setSettlementWallet } from "../../src/modules/invoices/settings/manage";
import { renewSubscription } from "../../src/modules/subscriptions/renew";
import { anvilSubscriptionBed, DAY } from "../helpers/anvil-subscriptions";
import { createTestApp } from "../helpers/app";
import { createTeamFixture } from "../helpers/fixtures";

const bed = await anvilSubscriptionBed();
afterAll(() => bed.stop());
const t = await createTestApp({ CHAIN_REGISTRY_FILE: bed.registryFile, SUBSCRIPTION_EVM_OPERATOR_KEY: bed.operatorKey });
const team = await createTeamFixture(t);
const tenant = { teamId: team.teamId, environment: "development" as const };
const actor = { kind: "test", id: "test", requestId: null };
await setSettlementWallet(t.db.sql, t.config.chains, tenant, actor, "anvil", { wallet: bed.payee }, new Date(t.clock.now()));
await createPlanRecord({ sql: t.db.sql, chains: t.config.chains, now: () => new Date(t.clock.now()) }, tenant, actor, {
  name: "Pro",
  prices: [{ billingPeriod: "monthly", amount: "10", currency: "USDC" }],
  onchainPlanIds: { anvil: "pro" },
});
const operator = privateKeyToAccount(bed.operatorKey).address;
const subscription = async () => (await t.db.sql`select * from subscriptions where team_id = ${team.teamId}`)[0]!;

test("an operator without gas defers the renewal an hour without a dunning step; funded, it renews", async () => {
  t.clock.set((await bed.now()) * 1000);
  const res = await t.call("POST", "/subscriptions/activate", {
    token: team.keys.legacy,
    body: { planId: "pro", paymentAccount: bed.payer.address, company: { id: "acme" }, payerConsent: (await bed.consent(bed.payer, "acme")).body },
  });
  expect(res.status).toBe(200);
  const gas = await bed.anvil.client.getBalance({ address: operator });
  await bed.anvil.client.setBalance({ address: operator, value: 0n });
  await bed.elapse(31 * DAY);
  t.clock.set((await bed.now()) * 1000);
  const payerBefore = await bed.balanceOf(bed.payer.address);

  expect(await renewSubscription(t.deps.subscriptions, tenant, (await subscription()).id, new Date(t.clock.now()))).toBe("pending");
  let sub = await subscription();
  expect(sub.status).toBe("ACTIVE");
  expect(sub.dunning_attempts).toBe(0);
  expect(sub.next_attempt_at.getTime()).toBe(t.clock.now() + 3_600_000);
  const failed = await t.db.sql`select failure_reason, reference from subscription_charges where subscription_id = ${sub.id} and kind = 'renewal'`;
  expect(failed.map((f) => f.failure_reason)).toEqual(["not_configured"]);
  expect(await bed.balanceOf(bed.payer.address)).toBe(payerBefore);

  // The operator stays unfunded past the period's end: the deferred period is still charged first.
  await bed.anvil.client.setBalance({ address: operator, value: gas });
  await bed.elapse(31 * DAY);
  t.clock.set((await bed.now()) * 1000);
  expect(await renewSubscription(t.deps.subscriptions, tenant, sub.id, new Date(t.clock.now()))).toBe("renewed");
  sub = await subscription();
  expect(sub.status).toBe("ACTIVE");
  expect(sub.period_index).toBe(1);
  expect(await bed.balanceOf(bed.payer.address)).toBe(payerBefore - 10_000_000n);
  expect(sub.next_attempt_at.getTime()).toBe(sub.current_period_end.getTime()); // already due: period 2 next
  const charges = await t.db
    .sql`select status, reference from subscription_charges where subscription_id = ${sub.id} and kind = 'renewal' order by created_at`;
  expect(charges.map((c) => c.status)).toEqual(["failed", "succeeded"]);
  expect(charges[0]!.reference).not.toBe(charges[1]!.reference);
});

test("a lapsed approval expires the mandate; approved again, the next dunning retry revives it and pulls", async () => {
  const start = await bed.now();
  const { account: payer } = await bed.newPayer({ end: start + 40 * DAY });
  t.clock.set(start * 1000);
  const res = await t.call("POST", "/subscriptions/activate", {
    token: team.keys.legacy,
    body: {
      planId: "pro",
      paymentAccount: payer.address,
      company: { id: "beta" },
      payerConsent: (await bed.consent(payer, "beta", { end: start + 40 * DAY })).body,
    },
  });
  expect(res.status).toBe(200);
  const beta = async () => (await t.db.sql`select * from subscriptions where team_id = ${team.teamId} and payment_account = ${payer.address}`)[0]!;
  const mandate = async () => (await t.db.sql`select * from mandates where subscription_id = ${(await beta()).id}`)[0]!;
  expect((await mandate()).expires_at.getTime()).toBe((start + 40 * DAY) * 1000);

  const renewAt = async (seconds: number) => {
    await bed.elapse(seconds);
    t.clock.set((await bed.now()) * 1000);
    return renewSubscription(t.deps.subscriptions, tenant, (await beta()).id, new Date(t.clock.now()));
  };
  expect(await renewAt(31 * DAY)).toBe("renewed");
  // Past the authorization's end: the mandate expires and the renewal goes to dunning, nothing pulled.
  const before = await bed.balanceOf(payer.address);
  expect(await renewAt(31 * DAY)).toBe("past_due");
  expect((await mandate()).status).toBe("EXPIRED");
  expect(await bed.balanceOf(payer.address)).toBe(before);

  // The payer renews its subscription's own authorization (a new end and cap); the next retry (+24 h) revives the
  // mandate and pulls.
  await bed.reauthorize(payer, BigInt((await beta()).token_id), { end: (await bed.now()) + 365 * DAY, cap: 50_000_000n });
  expect(await renewAt(24 * 3600)).toBe("renewed");
  const revived = await mandate();
  expect(revived.status).toBe("ACTIVE");
  expect(revived.expired_at).toBeNull();
  expect(revived.authorized_amount).toBe("50000000");
  expect(revived.remaining_amount).toBe("40000000");
  expect((await beta()).status).toBe("ACTIVE");
  expect(await bed.balanceOf(payer.address)).toBe(before - 10_000_000n);
  const audited = await t.db
    .sql`select action from audit_log where team_id = ${team.teamId} and resource_id = ${revived.id} and action = 'mandate.reapproved'`;
  expect(audited.length).toBe(1);
});
