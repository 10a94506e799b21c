/**
 * Bad input to POST /companies/plan and its dashboard twins, on a live subscription activated on anvil:
 * every answer a 4xx in the spec's shapes, and nothing written (the subscription, invoices, coupon
 * redemptions, the credit balance, chain operations, payments).
 */
import { expect, test } from "bun:test";
import { erc20Abi } from "viem";
import { foundry } from "viem/chains";
import { createPlanRecord, updatePlanRecord } from "../../src/modules/catalog/plans/edit";
import { createDashboardSession } from "../../src/modules/teams/automation-session";
import { createTeamFixture } from "../helpers/fixtures";
import { anvilSubscriptionApp, monthly } from "../helpers/subscriptions";

const { bed, t, team, tenant, actor, catalog } = await anvilSubscriptionApp({
  terms: { periodAllowance: 100_000_000n, cap: 1_000_000_000n },
  teamName: "Probes",
});
const sql = t.db.sql;
const other = await createTeamFixture(t, "Other");
const basic = await createPlanRecord(catalog, tenant, actor, { name: "Basic", prices: monthly("10"), onchainPlanIds: { anvil: "basic" } });
const pro = await createPlanRecord(catalog, tenant, actor, { name: "Pro", prices: monthly("30") });
const addOn = await createPlanRecord(catalog, tenant, actor, { name: "Seats", kind: "add_on", prices: monthly("5") });
const archived = await createPlanRecord(catalog, tenant, actor, { name: "Old", prices: monthly("20") });
await updatePlanRecord(catalog, tenant, actor, { id: archived.id, patch: { archived: true } });
const unpriced = await createPlanRecord(catalog, tenant, actor, { name: "Unpriced" });
const euro = await createPlanRecord(catalog, tenant, actor, { name: "Euro", prices: monthly("40") });
await sql`update plan_prices set currency = 'EURC' where plan_id = ${euro.id}`;
const otherTenant = { teamId: other.teamId, environment: "development" as const };
const foreign = await createPlanRecord(catalog, otherTenant, actor, { name: "Foreign", prices: monthly("50") });

// Sessions made at the service's clock, which this file moves by days.
const session = async (teamId: string) => ({
  token: (await createDashboardSession(sql, { teamId, environment: "development", userEmail: "admin@test.dev", roles: ["admin"] }, t.clock.now()))
    .session,
});
const embed = async (company = "acme", secret = team.keys.secret) =>
  (await t.call("POST", "/api-keys/tokens", { token: secret, body: { company: { id: company }, ttlSeconds: 900 } })).body.token;
const change = async (body: unknown, extra: { rawBody?: string; headers?: Record<string, string> } = {}) =>
  t.call("POST", "/companies/plan", { token: await embed(), ...(extra.rawBody === undefined ? { body } : {}), ...extra });

const syncClock = async () => t.clock.set((await bed.now()) * 1000);
await syncClock();
const activated = await t.call("POST", "/subscriptions/activate", {
  token: team.keys.legacy,
  body: { planId: "basic", paymentAccount: bed.payer.address, company: { id: "acme" }, payerConsent: (await bed.consent(bed.payer, "acme")).body },
});
expect(activated.status).toBe(200);
await bed.elapse(5 * 86_400);
await syncClock();

/** Everything a plan change could write, for this team. */
async function snapshot() {
  const of = (table: string) => sql.unsafe(`select * from ${table} where team_id = $1 order by 1`, [team.teamId]);
  return {
    subscriptions: await of("subscriptions"),
    invoices: await of("invoices"),
    redemptions: await of("coupon_redemptions"),
    coupons: await sql`select id, redemptions from coupons where team_id = ${team.teamId} order by id`,
    balance: await of("customer_balance_entries"),
    charges: await of("subscription_charges"),
    payments: await of("payments"),
    mandates: await of("mandates"),
    companies: await sql`select id, active_plan_id from companies where team_id = ${team.teamId} order by id`,
  };
}

const SHAPES = [["error"], ["code", "error"], ["details", "error"]].map((k) => k.join());
function expectRefused(res: { status: number; body: any }, status: number, code?: string) {
  expect({ status: res.status, body: res.body }).toMatchObject({ status, ...(code ? { body: { code } } : {}) });
  expect(SHAPES).toContain(Object.keys(res.body).sort().join());
}

async function coupon(body: Record<string, unknown>) {
  const res = await t.call("POST", "/dashboard/coupons", {
    ...(await session(team.teamId)),
    body: { percentOff: "50", duration: "forever", ...body },
  });
  expect(res.status).toBe(201);
  return res.body.data;
}

test("POST /companies/plan: malformed bodies are a 400 {error, details} naming the field, nothing written", async () => {
  const before = await snapshot();
  const cases: [unknown, string][] = [
    [{}, "body.planId"],
    [{ planId: "" }, "body.planId"],
    [{ planId: 42 }, "body.planId"],
    [{ planId: null }, "body.planId"],
    [{ planId: ["pro"] }, "body.planId"],
    [{ planId: "x".repeat(10_000) }, "body.planId"],
    [{ planId: pro.id, billingPeriod: "weekly" }, "body.billingPeriod"],
    [{ planId: pro.id, billingPeriod: "" }, "body.billingPeriod"],
    [{ planId: pro.id, billingPeriod: "Monthly" }, "body.billingPeriod"],
    [{ planId: pro.id, effective: "later" }, "body.effective"],
    [{ planId: pro.id, effective: "" }, "body.effective"],
    [{ planId: pro.id, couponCode: "" }, "body.couponCode"],
    [{ planId: pro.id, couponCode: 5 }, "body.couponCode"],
    [{ planId: pro.id, couponCode: "c".repeat(65) }, "body.couponCode"],
    [{ planId: pro.id, txHash: "" }, "body.txHash"],
    [{ planId: pro.id, txHash: "0x" + "a".repeat(500) }, "body.txHash"],
    [{ planId: pro.id, customerEmail: "not-an-email" }, "body.customerEmail"],
    [{ planId: pro.id, customerEmail: "" }, "body.customerEmail"],
    [{ planId: pro.id, customerName: "" }, "body.customerName"],
    [{ planId: pro.id, customerName: "n".repeat(201) }, "body.customerName"],
  ];
  for (const [body, field] of cases) {
    const res = await change(body);
    expectRefused(res, 400);
    expect(Object.keys(res.body.details ?? {})).toContain(field);
  }
  for (const rawBody of ["", "not json", "[1,2]", '"pro"', "null", '{"planId":'])
    expectRefused(await change(undefined, { rawBody, headers: { "content-type": "application/json" } }), 400);
  expectRefused(await change(undefined, { rawBody: "planId=pro", headers: { "content-type": "application/x-www-form-urlencoded" } }), 415);
  expect(await snapshot()).toEqual(before);
});

test("POST /companies/plan: NUL bytes and control characters are refused, not a 500", async () => {
  const before = await snapshot();
  for (const field of ["planId", "couponCode", "txHash", "customerName", "customerEmail"]) {
    const res = await change({ planId: pro.id, [field]: "a\u0000b" });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(SHAPES).toContain(Object.keys(res.body).sort().join());
  }
  expect(await snapshot()).toEqual(before);
});

test("POST /companies/plan: plans that cannot be subscribed to are refused, nothing written", async () => {
  const before = await snapshot();
  expectRefused(await change({ planId: "plan_nope" }), 404, "plan_not_found");
  expectRefused(await change({ planId: foreign.id }), 404, "plan_not_found");
  const add = await change({ planId: addOn.id });
  expectRefused(add, 400);
  expect(add.body.details["body.planId"]).toBeDefined();
  expectRefused(await change({ planId: archived.id }), 409, "plan_not_subscribable");
  expectRefused(await change({ planId: unpriced.id }), 409, "plan_not_subscribable");
  expectRefused(await change({ planId: euro.id }), 409, "plan_not_subscribable");
  expectRefused(await change({ planId: pro.id, billingPeriod: "yearly" }), 409, "plan_not_subscribable");
  expect(await snapshot()).toEqual(before);
});

test("POST /companies/plan: coupons unknown, expired, exhausted or for another plan are refused and not redeemed", async () => {
  await coupon({ code: "ONLYBASIC", planIds: [basic.id] });
  const exhausted = await coupon({ code: "GONE", maxRedemptions: 1 });
  await sql`update coupons set redemptions = 1 where id = ${exhausted.id}`;
  const expiring = await coupon({ code: "SOON", expiresAt: new Date(t.clock.now() + 60_000).toISOString() });
  const archivedCoupon = await coupon({ code: "RETIRED" });
  expect((await t.call("DELETE", `/dashboard/coupons/${archivedCoupon.id}`, await session(team.teamId))).status).toBe(200);
  await bed.elapse(120);
  await syncClock();
  const before = await snapshot();
  expectRefused(await change({ planId: pro.id, couponCode: "NOPE" }), 404, "coupon_not_found");
  expectRefused(await change({ planId: pro.id, couponCode: "ONLYBASIC" }), 422, "coupon_not_applicable");
  expectRefused(await change({ planId: pro.id, couponCode: "GONE" }), 422, "coupon_exhausted");
  expectRefused(await change({ planId: pro.id, couponCode: "SOON" }), 422, "coupon_expired");
  expectRefused(await change({ planId: pro.id, couponCode: "RETIRED" }), 422, "coupon_archived");
  expect(await snapshot()).toEqual(before);
  expect(expiring.code).toBe("SOON");
});

test("POST /companies/plan: a bad txHash is refused before anything is written", async () => {
  const before = await snapshot();
  const malformed = await change({ planId: pro.id, txHash: "0x1234" });
  expectRefused(malformed, 400);
  expect(malformed.body.details["body.txHash"]).toBeDefined();
  // A Solana signature (base58) and a Stellar hash (64 hex without 0x) are not EVM hashes.
  const solana = "5VERv8NMvzbJMEkV8xnrLkEaWRtSz9CosKDYjCJjBRnbJLgp8uirBgmQpjKhoR4tjF3ZpRzrFmBV6UjKdiSZkQUW";
  expectRefused(await change({ planId: pro.id, txHash: solana }), 400);
  const unknown = await change({ planId: pro.id, txHash: `0x${"ab".repeat(32)}` });
  expectRefused(unknown, 409, "payment_not_final");
  expect(await snapshot()).toEqual(before);
});

test("POST /companies/plan: a transfer to another wallet, or one another wallet made, does not pay the change", async () => {
  const pay = (to: `0x${string}`, amount: bigint) =>
    bed.anvil.client.writeContract({
      address: bed.usdc,
      abi: erc20Abi,
      functionName: "transfer",
      args: [to, amount],
      account: bed.payer,
      chain: foundry,
    });
  const elsewhere = await pay(bed.otherPayee, 100_000_000n);
  await bed.anvil.client.waitForTransactionReceipt({ hash: elsewhere });
  const before = await snapshot();
  expectRefused(await change({ planId: pro.id, txHash: elsewhere }), 422, "wrong_recipient");
  expect(await snapshot()).toEqual(before);
});

test("the dashboard routes: another team's company is a 404, and the embed token only ever names its own company", async () => {
  const before = await snapshot();
  const theirs = await session(other.teamId);
  expectRefused(await t.call("POST", "/dashboard/companies/acme/plan", { ...theirs, body: { planId: foreign.id } }), 404);
  expectRefused(await t.call("POST", "/dashboard/companies/acme/plan/preview", { ...theirs, body: { planId: foreign.id } }), 404);
  const acme = (await sql`select id from companies where team_id = ${team.teamId} and external_id = 'acme'`)[0]!.id;
  expectRefused(await t.call("POST", `/dashboard/companies/${acme}/plan`, { ...theirs, body: { planId: foreign.id } }), 404);
  // Another team's embed token for its own "acme": that company has no subscription.
  const theirEmbed = await embed("acme", other.keys.secret);
  expectRefused(await t.call("POST", "/companies/plan", { token: theirEmbed, body: { planId: foreign.id } }), 409, "plan_change_not_allowed");
  // Secret keys and dashboard sessions cannot use the customer's route.
  expectRefused(await t.call("POST", "/companies/plan", { token: team.keys.secret, body: { planId: pro.id } }), 403);
  expectRefused(await t.call("POST", "/companies/plan", { ...(await session(team.teamId)), body: { planId: pro.id } }), 403);
  expectRefused(await t.call("POST", "/companies/plan", { body: { planId: pro.id } }), 401);
  expect(await snapshot()).toEqual(before);
});

test("the dashboard twins: malformed bodies and company ids are a 400 or 404, the preview of a bad change the change's own error", async () => {
  const before = await snapshot();
  const as = await session(team.teamId);
  for (const path of ["/dashboard/companies/acme/plan", "/dashboard/companies/acme/plan/preview"]) {
    const bad = await t.call("POST", path, { ...as, body: { planId: "", billingPeriod: "daily", effective: 1 } });
    expectRefused(bad, 400);
    expect(Object.keys(bad.body.details)).toEqual(expect.arrayContaining(["body.planId", "body.billingPeriod", "body.effective"]));
    expectRefused(await t.call("POST", path.replace("acme", "nobody"), { ...as, body: { planId: pro.id } }), 404);
    expectRefused(await t.call("POST", path.replace("acme", "x".repeat(201)), { ...as, body: { planId: pro.id } }), 400);
    expectRefused(await t.call("POST", path.replace("acme", "a%00b"), { ...as, body: { planId: pro.id } }), 400);
    expectRefused(await t.call("POST", path, { ...as, body: { planId: archived.id } }), 409, "plan_not_subscribable");
    expectRefused(await t.call("POST", path, { ...as, body: { planId: pro.id, couponCode: "NOPE" } }), 404, "coupon_not_found");
  }
  // The preview takes no payment: a txHash sent to it is an unknown field, refused rather than ignored.
  const paid = await t.call("POST", "/dashboard/companies/acme/plan/preview", { ...as, body: { planId: pro.id, txHash: `0x${"ab".repeat(32)}` } });
  expect(paid.status).toBe(400);
  expect(Object.keys(paid.body.details)).toEqual(["body.txHash"]);
  expect(await snapshot()).toEqual(before);
});
