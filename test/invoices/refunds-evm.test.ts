/**
 * POST /invoices/{id}/refunds on anvil: a refund proven by a real ERC-20 transfer from the team's
 * settlement wallet is recorded with its credit note, its webhook and its audit entry; every proof that
 * does not prove the refund is refused with its code and records nothing.
 */
import { describe, expect, test } from "bun:test";
import { anvilRefundBed } from "../helpers/anvil-refunds";
import { createTeamFixture, newKey } from "../helpers/fixtures";
import { createDashboardSession } from "../../src/modules/teams/service";
import { issuedInvoice, line, payInvoice } from "../helpers/invoices";
import { expectRefused, NOTHING_RECORDED, setSettlementWallet } from "../helpers/refunds";

const { bed, usdc, other, merchant, stranger, customer, elsewhere, send, confirm, body } = await anvilRefundBed();
const { t } = bed;
const USDC = (n: number) => BigInt(Math.round(n * 1_000_000));

describe("201: a proven refund", () => {
  test("records the refund, its credit note, the webhook and the audit entry; the invoice's amountRefunded grows", async () => {
    const invoice = await bed.paidInvoice("anvil", USDC(100));
    const hash = await send(merchant, usdc, customer, USDC(12.5));
    await confirm();
    const res = await bed.refund(invoice, body(12.5, hash));
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      refund: {
        id: expect.stringMatching(/^re_/),
        invoiceId: invoice,
        creditNoteId: expect.stringMatching(/^cn_/),
        amount: "12.500000",
        currency: "USDC",
        tokenAmount: "12500000",
        reason: "Duplicate charge",
        network: "anvil",
        txHash: hash,
        senderWallet: merchant.address,
        recipientWallet: customer,
        createdAt: new Date(t.clock.now()).toISOString(),
      },
    });
    expect(await bed.recorded(invoice)).toEqual({ refunds: 1, creditNotes: 1, amountRefunded: "12500000", refundEvents: 1, audits: 1 });
    const [note] = await t.db.sql`select number, credit_amount, refund_amount, refund_id, reason from credit_notes where invoice_id = ${invoice}`;
    expect(note).toEqual({
      number: expect.stringMatching(/^CN-\d{6}$/),
      credit_amount: 0n,
      refund_amount: 12_500_000n,
      refund_id: res.body.refund.id,
      reason: "Duplicate charge",
    });
    // The webhooks carry the API's records: the refund as answered, and its credit note.
    const messages = await t.db.sql`select event_type, body from webhook_messages where team_id = ${bed.tenant.teamId}
      and event_type in ('refund.created', 'credit_note.created') and body::jsonb -> 'data' -> (case when event_type = 'refund.created'
      then 'refund' else 'creditNote' end) ->> 'invoiceId' = ${invoice} order by event_type`;
    expect(messages.map((m) => [m.event_type, JSON.parse(m.body).data])).toEqual([
      [
        "credit_note.created",
        {
          creditNote: {
            id: res.body.refund.creditNoteId,
            number: note!.number,
            invoiceId: invoice,
            currency: "USDC",
            reason: "Duplicate charge",
            amount: "12.500000",
            creditAmount: "0.000000",
            refundAmount: "12.500000",
            refundId: res.body.refund.id,
            memo: null,
            lineItems: [{ description: "Refund: Duplicate charge", amount: "12.500000" }],
            createdAt: res.body.refund.createdAt,
          },
        },
      ],
      ["refund.created", { refund: res.body.refund }],
    ]);
    const [row] = await t.db.sql`select status, amount_paid, amount_refunded, amount_outstanding from invoices where id = ${invoice}`;
    expect(row).toEqual({ status: "PAID", amount_paid: USDC(100), amount_refunded: USDC(12.5), amount_outstanding: 0n });
  });

  test("a decimal string amount, a hash in capitals (the same transaction), a transfer larger than the amount", async () => {
    const invoice = await bed.paidInvoice("anvil", USDC(50));
    const hash = await send(merchant, usdc, customer, USDC(20));
    await confirm();
    const res = await bed.refund(invoice, body("19.999999", `0x${hash.slice(2).toUpperCase()}`));
    expect(res.status).toBe(201);
    // What the refund says is what was asked; tokenAmount is what the transaction moved.
    expect(res.body.refund).toMatchObject({ amount: "19.999999", tokenAmount: "20000000", txHash: hash });
  });

  test("refunds up to what was paid, then refund_exceeds_paid", async () => {
    const invoice = await bed.paidInvoice("anvil", USDC(10));
    const first = await send(merchant, usdc, customer, USDC(6));
    const second = await send(merchant, usdc, customer, USDC(5));
    await confirm();
    expect((await bed.refund(invoice, body(6, first))).status).toBe(201);
    const after = await bed.recorded(invoice);
    await expectRefused(bed, invoice, await bed.refund(invoice, body(5, second)), 409, "refund_exceeds_paid", after);
    expect((await bed.refund(invoice, body(4, second))).status).toBe(201);
    expect((await bed.recorded(invoice)).amountRefunded).toBe("10000000");
  });
});

describe("422/409: proofs that do not prove the refund record nothing", () => {
  const refused = async (hash: string, status: number, code: string, amount = 12.5, to = customer) => {
    const invoice = await bed.paidInvoice("anvil", USDC(100));
    await expectRefused(bed, invoice, await bed.refund(invoice, body(amount, hash, to)), status, code, NOTHING_RECORDED);
  };

  test("wrong token: another ERC-20 from the settlement wallet", async () => {
    const hash = await send(merchant, other, customer, USDC(12.5));
    await confirm();
    await refused(hash, 422, "wrong_token");
  });

  test("wrong sender: the invoice's token, but not from the team's settlement wallet", async () => {
    const hash = await send(stranger, usdc, customer, USDC(12.5));
    await confirm();
    await refused(hash, 422, "wrong_sender");
  });

  test("wrong recipient: sent to another wallet than recipientWallet", async () => {
    const hash = await send(merchant, usdc, elsewhere, USDC(12.5));
    await confirm();
    await refused(hash, 422, "wrong_recipient");
  });

  test("too small: one base unit less than the amount", async () => {
    const hash = await send(merchant, usdc, customer, USDC(12.5) - 1n);
    await confirm();
    await refused(hash, 422, "amount_too_low");
  });

  test("reverted on chain: transaction_failed", async () => {
    const hash = await send(merchant, usdc, customer, 10n ** 30n, 100_000n);
    await confirm();
    await refused(hash, 422, "transaction_failed");
  });

  test("unconfirmed: 409 refund_not_final with Retry-After; the same Idempotency-Key succeeds once it is final", async () => {
    const invoice = await bed.paidInvoice("anvil", USDC(100));
    const hash = await send(merchant, usdc, customer, USDC(12.5)); // 1 of 2 confirmations
    const headers = { "idempotency-key": crypto.randomUUID() };
    const early = await bed.refund(invoice, body(12.5, hash), { headers });
    await expectRefused(bed, invoice, early, 409, "refund_not_final", NOTHING_RECORDED);
    expect(early.headers.get("retry-after")).toBe("5");
    await confirm();
    const final = await bed.refund(invoice, body(12.5, hash), { headers });
    expect(final.status).toBe(201);
    expect(final.headers.get("idempotent-replayed")).toBeNull();
  });

  test("an unknown hash is not seen yet: refund_not_final", async () => {
    await refused(`0x${"ab".repeat(32)}`, 409, "refund_not_final");
  });

  test("reused: a hash that proved a refund (here or on another invoice), or a payment, is refund_replayed", async () => {
    const invoice = await bed.paidInvoice("anvil", USDC(100));
    const hash = await send(merchant, usdc, customer, USDC(10));
    await confirm();
    expect((await bed.refund(invoice, body(5, hash))).status).toBe(201);
    const once = await bed.recorded(invoice);
    await expectRefused(bed, invoice, await bed.refund(invoice, body(5, hash)), 409, "refund_replayed", once);
    await refused(hash, 409, "refund_replayed", 5);
    const [payment] = await t.db.sql`select tx_hash from payments where invoice_id = ${invoice}`;
    await refused(payment!.tx_hash, 409, "refund_replayed", 5);
  });

  test("another team cannot reuse a hash this team's refund proved", async () => {
    const invoice = await bed.paidInvoice("anvil", USDC(100));
    const hash = await send(merchant, usdc, customer, USDC(3));
    await confirm();
    expect((await bed.refund(invoice, body(3, hash))).status).toBe(201);
    const rival = await createTeamFixture(t, "Rival");
    const tenant = { teamId: rival.teamId, environment: "development" as const };
    await t.db
      .sql`insert into settlement_wallets (team_id, environment, network, wallet) values (${rival.teamId}, 'development', 'anvil', ${merchant.address})`;
    const now = new Date(t.clock.now());
    const theirs = await issuedInvoice(t.db.sql, t.config.chains, tenant, now, [line(USDC(9))], { network: "anvil" });
    await payInvoice(t.db.sql, t.config.chains, tenant, now, theirs.id, USDC(9), "anvil");
    const res = await t.call("POST", `/invoices/${theirs.id}/refunds`, { token: rival.keys.secret, body: body(3, hash) });
    expect(res.body).toEqual({ error: expect.any(String), code: "refund_replayed" });
    // Nor can it see or refund this team's invoice.
    const foreign = await t.call("POST", `/invoices/${invoice}/refunds`, { token: rival.keys.secret, body: body(3, hash) });
    expect(foreign.status).toBe(404);
  });
});

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
