/**
 * A request's own fields are checked before anything is looked up: bad input is a 400 {error, details}
 * naming the field, never a 404 for a missing record or a 409 about its state (a refund of -1 on an unpaid
 * invoice answered 409 invoice_not_refundable). Each row sends a bad field to a record that would refuse
 * the request otherwise (missing, unpaid, without a subscription), and nothing is written.
 */
import { expect, test } from "bun:test";
import { createTestApp } from "../helpers/app";
import { createTeamFixture } from "../helpers/fixtures";
import { issuedInvoice, line } from "../helpers/invoices";

const t = await createTestApp();
const team = await createTeamFixture(t, "Field checks first");
const dev = { teamId: team.teamId, environment: "development" as const };
const unpaid = (await issuedInvoice(t.db.sql, t.config.chains, dev, new Date(t.clock.now()), [line(10_000_000n)])).id;
const admin = { token: team.dashboardAdmin };
const key = { token: team.keys.secret };
const EVM_TX = `0x${"ab".repeat(32)}`;
const WALLET = "0x8ba1f109551bD432803012645Ac136ddd64DBA72";
const refund = (amount: unknown) => ({ amount, reason: "Duplicate charge", refundProof: { txHash: EVM_TX, recipientWallet: WALLET } });

const writes = async () =>
  (
    await t.db.sql`select (select count(*) from refunds where team_id = ${team.teamId})::int as refunds,
                          (select count(*) from credit_notes where team_id = ${team.teamId})::int as credit_notes,
                          (select count(*) from audit_log where team_id = ${team.teamId})::int as audits`
  )[0];

type Row = [string, string, string, { token: string }, unknown, string];
const rows: Row[] = [
  // Refunds: the reported case, on an unpaid invoice (409 invoice_not_refundable before) and a missing one (404).
  ...[-1, 0, "ten", 1e-7, "-1", "0.0000001", ""].map(
    (amount): Row => ["refund amount", "POST", `/invoices/${unpaid}/refunds`, key, refund(amount), "body.amount"],
  ),
  ["refund amount, missing invoice", "POST", "/invoices/in_missing/refunds", key, refund("ten"), "body.amount"],
  [
    "refund hash",
    "POST",
    `/invoices/${unpaid}/refunds`,
    key,
    { ...refund("1"), refundProof: { txHash: "nope", recipientWallet: WALLET } },
    "body.refundProof.txHash",
  ],
  [
    "refund recipient",
    "POST",
    `/invoices/${unpaid}/refunds`,
    key,
    { ...refund("1"), refundProof: { txHash: EVM_TX, recipientWallet: "nope" } },
    "body.refundProof.recipientWallet",
  ],
  // Payment proofs: a hash no network has, an unknown network, on a missing invoice (404 before).
  ["payment proof hash", "POST", "/dashboard/invoices/in_missing/payments", admin, { txHash: "nope" }, "body.txHash"],
  ["payment proof network", "POST", "/dashboard/invoices/in_missing/payments", admin, { txHash: EVM_TX, network: "nowhere" }, "body.network"],
  // Checkout session payments: on a missing session (404 before).
  ["checkout payment hash", "POST", "/checkout-sessions/cs_missing/payments", key, { txHash: "nope" }, "body.txHash"],
  // Plan change paid by transfer: a company without a subscription (409 plan_change_not_allowed before).
  ["plan change hash", "POST", "/dashboard/companies/comp_missing/plan", admin, { planId: "pro", txHash: "nope" }, "body.txHash"],
  // Coupons: a patch of a missing coupon (404 before).
  ["coupon amountOff", "PATCH", "/dashboard/coupons/coupon_missing", admin, { amountOff: "ten", currency: "USDC" }, "amountOff"],
  ["coupon amountOff zero", "PATCH", "/dashboard/coupons/coupon_missing", admin, { amountOff: "0", currency: "USDC" }, "amountOff"],
  ["coupon percentOff", "PATCH", "/dashboard/coupons/coupon_missing", admin, { percentOff: "half" }, "percentOff"],
  // Already field-first: plan prices, credit notes, invoice drafts (kept so by this table).
  ["plan price", "PUT", "/dashboard/plans/plan_missing/prices/monthly", admin, { amount: "ten", currency: "USDC" }, "amount"],
  ["credit note amount", "POST", "/dashboard/invoices/in_missing/credit-notes", admin, { reason: "Outage", amount: "0" }, "body.amount"],
  [
    "draft unit amount",
    "PUT",
    "/dashboard/invoices/in_missing",
    admin,
    { currency: "USDC", lineItems: [{ description: "x", quantity: 1, unitAmount: "ten", taxRate: "0" }] },
    "body.lineItems[0].unitAmount",
  ],
];

// Spread: a sixth named parameter would be taken for a `done` callback.
test.each(rows)("%s: %s %s is a 400 naming the field", async (...[, method, path, as, body, field]) => {
  const before = await writes();
  const res = await t.call(method, path, { ...as, body });
  expect(res.status).toBe(400);
  expect(res.body.error).toBe("Validation failed");
  expect(Object.keys(res.body.details).some((k) => k === field || k.endsWith(`.${field}`))).toBe(true);
  expect(await writes()).toEqual(before);
});

test("the same refund with a good amount reaches the invoice's state: 409 invoice_not_refundable", async () => {
  const res = await t.call("POST", `/invoices/${unpaid}/refunds`, { ...key, body: refund("1") });
  expect(res.status).toBe(409);
  expect(res.body.code).toBe("invoice_not_refundable");
});
