/**
 * POST /invoices/{id}/refunds, the answers given before any chain call (404, 400 naming every field, 409 for an
 * invoice that cannot refund) and the credentials the route takes; anvil proves the transactions of the allowed calls.
 */
import { describe, expect, test } from "bun:test";
import { anvilRefundBed } from "../helpers/chains/anvil-refunds";
import { newKey } from "../helpers/fixtures";
import { issuedInvoice, line } from "../helpers/invoices";
import { expectRefused, NOTHING_RECORDED, setSettlementWallet } from "../helpers/refunds";
import { createDashboardSession } from "../../src/modules/teams/automation-session";

const { bed, usdc, merchant, customer, send, confirm, body } = await anvilRefundBed();
const { t } = bed;
const USDC = (n: number) => BigInt(Math.round(n * 1_000_000));

describe("refusals before any chain call", () => {
  test("400 names every bad field and records nothing", async () => {
    const invoice = await bed.paidInvoice("anvil", USDC(100));
    const res = await bed.refund(invoice, { amount: "1e3", reason: "Refund", refundProof: { txHash: "0x1234", recipientWallet: "GBAD" } });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.details).sort()).toEqual(["body.amount", "body.refundProof.recipientWallet", "body.refundProof.txHash"]);
    const cases: [unknown, string][] = [
      [0, "body.amount"],
      ["-1", "body.amount"],
      ["1.0000001", "body.amount"],
      [0.30000000000000004, "body.amount"],
    ];
    for (const [amount, field] of cases) {
      const r = await bed.refund(invoice, body(amount, `0x${"cd".repeat(32)}`));
      expect({ amount, status: r.status, fields: Object.keys(r.body.details ?? {}) }).toEqual({ amount, status: 400, fields: [field] });
    }
    for (const reason of ["   ", "x".repeat(501)]) {
      const r = await bed.refund(invoice, body(1, `0x${"cd".repeat(32)}`, customer, reason));
      expect({ status: r.status, fields: Object.keys(r.body.details) }).toEqual({ status: 400, fields: ["body.reason"] });
    }
    const toSelf = await bed.refund(invoice, body(1, `0x${"cd".repeat(32)}`, merchant.address));
    expect(toSelf.body.details).toEqual({ "body.refundProof.recipientWallet": expect.stringContaining("settlement wallet") });
    expect(await bed.recorded(invoice)).toEqual(NOTHING_RECORDED);
  });

  test("404 for an unknown invoice; 409 invoice_not_refundable for one with nothing paid or no settlement wallet", async () => {
    const hash = `0x${"ef".repeat(32)}`;
    const missing = await bed.refund("in_nothing", body(1, hash));
    expect(missing).toMatchObject({ status: 404, body: { error: "No invoice in_nothing" } });
    const unpaid = await issuedInvoice(t.db.sql, t.config.chains, bed.tenant, new Date(t.clock.now()), [line(USDC(5))], { network: "anvil" });
    await expectRefused(bed, unpaid.id, await bed.refund(unpaid.id, body(1, hash)), 409, "invoice_not_refundable", NOTHING_RECORDED);
    const noNetwork = await issuedInvoice(t.db.sql, t.config.chains, bed.tenant, new Date(t.clock.now()), [line(USDC(5))]);
    await expectRefused(bed, noNetwork.id, await bed.refund(noNetwork.id, body(1, hash)), 409, "invoice_not_refundable", NOTHING_RECORDED);
    const invoice = await bed.paidInvoice("anvil", USDC(5));
    await t.db.sql`delete from settlement_wallets where team_id = ${bed.tenant.teamId}`;
    try {
      await expectRefused(bed, invoice, await bed.refund(invoice, body(1, hash)), 409, "invoice_not_refundable", NOTHING_RECORDED);
    } finally {
      await setSettlementWallet(bed, "anvil", merchant.address.toLowerCase());
    }
  });
});

describe("credentials", () => {
  test("rk_ with invoices.write and a dashboard session with billing:write record refunds; without them 403", async () => {
    const invoice = await bed.paidInvoice("anvil", USDC(10));
    const [a, b, c] = [
      await send(merchant, usdc, customer, USDC(1)),
      await send(merchant, usdc, customer, USDC(1)),
      await send(merchant, usdc, customer, USDC(1)),
    ];
    await confirm();
    const now = t.clock.now();
    const writer = await newKey(t.db.sql, bed.team.teamId, "RESTRICTED", "development", now, { permissions: ["invoices.write"] });
    const reader = await newKey(t.db.sql, bed.team.teamId, "RESTRICTED", "development", now, { permissions: ["invoices.read"] });
    const billing = await createDashboardSession(t.db.sql, { ...bed.tenant, userEmail: "billing@test.dev", roles: ["billing:write"] }, now);
    const viewer = await createDashboardSession(t.db.sql, { ...bed.tenant, userEmail: "viewer@test.dev", roles: ["billing:read"] }, now);
    expect((await bed.refund(invoice, body(1, a), { token: writer.key })).status).toBe(201);
    expect((await bed.refund(invoice, body(1, b), { token: billing.session })).status).toBe(201);
    const before = await bed.recorded(invoice);
    for (const token of [reader.key, viewer.session])
      await expectRefused(bed, invoice, await bed.refund(invoice, body(1, c), { token }), 403, "missing_permission", before);
    for (const token of [bed.team.keys.publishable, bed.team.keys.legacy])
      await expectRefused(bed, invoice, await bed.refund(invoice, body(1, c), { token }), 403, "wrong_credential_kind", before);
  });
});
