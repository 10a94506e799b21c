/**
 * A subscription's life on anvil through the API and the job queue: activation, three renewals, a failed
 * renewal after the payer spends its balance, dunning to CANCELED. At every step the chain (balances, token
 * owner, the contract's authorization) and the database (invoices, mandate, subscription, company plan) agree.
 */
import { afterAll, expect, test } from "bun:test";
import { erc20Abi, type Abi } from "viem";
import { foundry } from "viem/chains";
import { SUBSCRIPTIONS_ABI } from "../../src/chains/evm/subscription-contract";
import { createPlanRecord } from "../../src/modules/catalog/plans";
import { setSettlementWallet } from "../../src/modules/invoices/settings/manage";
import { queueDueRenewals } from "../../src/modules/subscriptions/renew-jobs";
import { anvilSubscriptionBed, DAY } from "../helpers/anvil-subscriptions";
import { createTestApp } from "../helpers/app";
import { createTeamFixture } from "../helpers/fixtures";
import { drainJobs } from "../helpers/jobs";

const bed = await anvilSubscriptionBed({ terms: { periodAllowance: 10_000_000n, cap: 100_000_000n } });
afterAll(() => bed.stop());
const t = await createTestApp({ CHAIN_REGISTRY_FILE: bed.registryFile, SUBSCRIPTION_EVM_OPERATOR_KEY: bed.operatorKey });
const team = await createTeamFixture(t);
const tenant = { teamId: team.teamId, environment: "development" as const };
const actor = { kind: "test", id: "test", requestId: null };
const catalog = { sql: t.db.sql, chains: t.config.chains, now: () => new Date(t.clock.now()) };

await setSettlementWallet(t.db.sql, t.config.chains, tenant, actor, "anvil", { wallet: bed.payee }, new Date(t.clock.now()));
const plan = await createPlanRecord(catalog, tenant, actor, {
  name: "Pro",
  prices: [{ billingPeriod: "monthly", amount: "10", currency: "USDC" }],
  onchainPlanIds: { anvil: "pro" },
});

/** The service's clock follows the chain's, so periods and the contract's windows agree. */
const syncClock = async () => t.clock.set((await bed.now()) * 1000);
const usdc = (holder: `0x${string}`) => bed.balanceOf(holder);
const subscription = async () => (await t.db.sql`select * from subscriptions where team_id = ${team.teamId}`)[0]!;
const mandate = async () => (await t.db.sql`select * from mandates where team_id = ${team.teamId}`)[0]!;
const invoices = async () => [
  ...(await t.db.sql`select status, total, amount_paid from invoices where team_id = ${team.teamId} order by created_at`),
];
const companyPlan = async () =>
  (await t.db.sql`select active_plan_id from companies where team_id = ${team.teamId} and external_id = 'acme'`)[0]!.active_plan_id;
/** What the contract still allows the subscription to pull: its own authorization's cap less what it spent. */
const chainRemaining = async () => bed.chainRemaining((await subscription()).token_id);

async function renewAt(seconds: number) {
  await bed.elapse(seconds);
  await syncClock();
  await queueDueRenewals(t.deps.subscriptions, new Date(t.clock.now()));
  await drainJobs(t);
}

test("activation, three renewals, a failed renewal and dunning to CANCELED, chain and database in step", async () => {
  await syncClock();
  const payerStart = await usdc(bed.payer.address);
  const payeeStart = await usdc(bed.payee);

  // Without the payer's consent to this subscription: a 400 naming it, showing the typed data to sign; nothing moves.
  const body = { planId: "pro", paymentAccount: bed.payer.address, company: { id: "acme" }, subscriberEmail: "billing@acme.test" };
  const withoutConsent = await t.call("POST", "/subscriptions/activate", { token: team.keys.legacy, body });
  expect({ status: withoutConsent.status, fields: Object.keys(withoutConsent.body.details) }).toEqual({ status: 400, fields: ["body.payerConsent"] });
  expect(withoutConsent.body.details["body.payerConsent"]).toContain('"company":"acme"');
  expect(await usdc(bed.payer.address)).toBe(payerStart);

  const payerConsent = (await bed.consent(bed.payer, "acme")).body;
  const res = await t.call("POST", "/subscriptions/activate", {
    token: team.keys.legacy,
    headers: { "Idempotency-Key": "activate-acme-1" },
    body: { ...body, payerConsent },
  });
  expect(res.status).toBe(200);
  const { tokenId, txHash, companyId, planId, paymentAccount, mandateId } = res.body.data;
  expect(mandateId).toBe((await mandate()).id);
  expect({ planId, paymentAccount }).toEqual({ planId: "pro", paymentAccount: bed.payer.address });
  expect(txHash).toMatch(/^0x[0-9a-f]{64}$/);
  expect(companyId).toMatch(/^comp_/);
  // Chain: 10 USDC moved, the token is the payer's.
  expect(await usdc(bed.payer.address)).toBe(payerStart - 10_000_000n);
  expect(await usdc(bed.payee)).toBe(payeeStart + 10_000_000n);
  expect(await bed.read<string>("ownerOf", [BigInt(tokenId)])).toBe(bed.payer.address);
  // Database: ACTIVE, PAID invoice, mandate cap and what is left of it, company on the plan.
  let sub = await subscription();
  expect(sub.status).toBe("ACTIVE");
  expect(sub.token_id).toBe(tokenId);
  expect(await invoices()).toEqual([{ status: "PAID", total: 10_000_000n, amount_paid: 10_000_000n }]);
  expect((await mandate()).authorized_amount).toBe("100000000");
  expect((await mandate()).remaining_amount).toBe("90000000");
  expect(await chainRemaining()).toBe(90_000_000n);
  expect(await companyPlan()).toBe(plan.id);

  // A retry with the same key answers the same activation and charges nothing more.
  const again = await t.call("POST", "/subscriptions/activate", {
    token: team.keys.legacy,
    headers: { "Idempotency-Key": "activate-acme-1" },
    body: { ...body, payerConsent },
  });
  expect(again.body.data).toEqual(res.body.data);
  expect(await usdc(bed.payer.address)).toBe(payerStart - 10_000_000n);

  const status = await t.call("GET", `/mandates/${(await mandate()).id}/status`, { token: team.keys.legacy });
  expect(status.status).toBe(200);
  expect(status.body).toMatchObject({ status: "ACTIVE", authorizedAmount: "100000000", remainingAmount: "90000000", payerWallet: bed.payer.address });

  for (let renewal = 1; renewal <= 3; renewal++) {
    await renewAt(31 * DAY);
    sub = await subscription();
    expect(sub.status).toBe("ACTIVE");
    expect(sub.period_index).toBe(renewal);
    expect(await usdc(bed.payer.address)).toBe(payerStart - 10_000_000n * BigInt(renewal + 1));
    expect(await usdc(bed.payee)).toBe(payeeStart + 10_000_000n * BigInt(renewal + 1));
    expect((await mandate()).remaining_amount).toBe(String(90_000_000 - 10_000_000 * renewal));
    expect((await invoices()).map((i) => i.status)).toEqual(Array(renewal + 1).fill("PAID"));
    // What the contract still allows this subscription is what its mandate says is left.
    expect(await chainRemaining()).toBe(BigInt((await mandate()).remaining_amount));
  }

  // The payer spends its balance: the next renewal fails, PAST_DUE with retries at +1 d, +3 d, +7 d.
  const left = await usdc(bed.payer.address);
  await bed.anvil.client.writeContract({
    address: bed.usdc,
    abi: erc20Abi,
    functionName: "transfer",
    args: [bed.otherPayee, left],
    account: bed.payer,
    chain: foundry,
  });
  await renewAt(31 * DAY);
  sub = await subscription();
  expect(sub.status).toBe("PAST_DUE");
  expect(sub.dunning_attempts).toBe(1);
  expect((await invoices()).at(-1)!.status).toBe("ISSUED");
  for (const [hours, attempts] of [
    [24, 2],
    [48, 3],
  ] as const) {
    await renewAt(hours * 3600);
    expect((await subscription()).dunning_attempts).toBe(attempts);
    expect((await subscription()).status).toBe("PAST_DUE");
  }
  await renewAt(96 * 3600); // +7 d: the last retry fails too
  sub = await subscription();
  expect(sub.status).toBe("CANCELED");
  expect(await companyPlan()).toBeNull();
  expect((await mandate()).status).toBe("REVOKED");
  // Nothing more was pulled after the balance was spent; the revoke reached the contract.
  expect(await usdc(bed.payee)).toBe(payeeStart + 40_000_000n);
  const onChain = await bed.read<readonly unknown[]>("subscriptions", [BigInt(tokenId)]);
  expect(onChain).toContain(true);
  const ownerAfter = await bed.read<string>("ownerOf", [BigInt(tokenId)]);
  expect(ownerAfter).toBe(bed.payer.address);
  expect(SUBSCRIPTIONS_ABI as Abi).toBeDefined();
});
