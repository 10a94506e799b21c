/**
 * POST /invoices/{id}/refunds on anvil: a refund proven by a real ERC-20 transfer from the team's
 * settlement wallet is recorded with its credit note, its webhook and its audit entry; every proof that
 * does not prove the refund is refused with its code and records nothing.
 */
import { describe, expect, test } from "bun:test";
import { foundry } from "viem/chains";
import { anvilRefundBed } from "../helpers/chains/anvil-refunds";
import { createTeamFixture } from "../helpers/fixtures";
import { issuedInvoice, line, payInvoice } from "../helpers/invoices";
import { expectRefused, NOTHING_RECORDED } from "../helpers/refunds";

const { anvil, bed, usdc, other, merchant, stranger, customer, elsewhere, send, confirm, body } = await anvilRefundBed();
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

  test("native ETH must be exact, as for payments: more than the amount is amount_too_low, saying so; the exact amount is recorded", async () => {
    const eth = 10n ** 12n; // wei per micro-unit of an 18-decimal coin
    const paid = await issuedInvoice(t.db.sql, t.config.chains, bed.tenant, new Date(t.clock.now()), [line(USDC(2))], {
      currency: "ETH",
      network: "anvil",
    });
    await payInvoice(t.db.sql, t.config.chains, bed.tenant, new Date(t.clock.now()), paid.id, USDC(2), "anvil");
    const sendEth = (wei: bigint) => anvil.client.sendTransaction({ account: merchant, to: customer, value: wei, chain: foundry });
    const over = await sendEth(USDC(0.5) * eth + 1n);
    const exact = await sendEth(USDC(0.5) * eth);
    await anvil.client.waitForTransactionReceipt({ hash: exact });
    await confirm();
    const refused = await bed.refund(paid.id, body("0.5", over));
    expect(refused.status).toBe(422);
    expect(refused.body).toEqual({
      code: "amount_too_low",
      error: expect.stringContaining("more than 500000000000000000: a native-coin transfer must be exactly"),
    });
    expect(await bed.recorded(paid.id)).toEqual(NOTHING_RECORDED);
    const recorded = await bed.refund(paid.id, body("0.5", exact));
    expect(recorded.status).toBe(201);
    expect(recorded.body.refund).toMatchObject({ amount: "0.500000", currency: "ETH", tokenAmount: "500000000000000000" });
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
    // A wallet receives for one team: the rival has its own (the replay check comes before any sender check).
    await t.db
      .sql`insert into settlement_wallets (team_id, environment, network, wallet) values (${rival.teamId}, 'development', 'anvil', ${"0x1111111111111111111111111111111111111111"})`;
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
