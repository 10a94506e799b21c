/**
 * POST /invoices/{id}/refunds under load and retries, on anvil: 20 refunds of one invoice at once, each
 * proven by its own real transaction, never refund more than was paid; an Idempotency-Key replays the
 * first answer and records one refund.
 */
import { describe, expect, test } from "bun:test";
import { anvilRefundBed } from "../helpers/chains/anvil-refunds";
import { expectRefused } from "../helpers/refunds";

const { bed, usdc, merchant, customer, send, confirm, body } = await anvilRefundBed();

describe("20 parallel refunds of one invoice", () => {
  test("exactly floor(paid / each) are recorded, the rest refund_exceeds_paid; the total never passes amountPaid", async () => {
    const paid = 100_000_000n;
    const each = 7_000_000n;
    const invoice = await bed.paidInvoice("anvil", paid);
    const hashes: string[] = [];
    for (let i = 0; i < 20; i++) hashes.push(await send(merchant, usdc, customer, each));
    await confirm();
    expect(new Set(hashes).size).toBe(20);
    const answers = await Promise.all(hashes.map((hash) => bed.refund(invoice, body("7", hash))));
    const statuses = answers.map((a) => a.status);
    const fits = Number(paid / each); // 14
    expect(statuses.filter((s) => s === 201)).toHaveLength(fits);
    const refused = answers.filter((a) => a.status !== 201);
    expect(refused.map((a) => a.body)).toEqual(Array(20 - fits).fill({ error: expect.any(String), code: "refund_exceeds_paid" }));
    expect(await bed.recorded(invoice)).toEqual({
      refunds: fits,
      creditNotes: fits,
      amountRefunded: (BigInt(fits) * each).toString(),
      refundEvents: fits,
      audits: fits,
    });
    // Each recorded refund is the one its answer named, and credit notes took consecutive numbers.
    const recorded = await bed.t.db.sql`select id, tx_hash from refunds where invoice_id = ${invoice} order by id`;
    const answered = answers.filter((a) => a.status === 201).map((a) => ({ id: a.body.refund.id, tx_hash: a.body.refund.txHash }));
    expect(recorded.map((r) => ({ ...r }))).toEqual(answered.sort((a, b) => (a.id < b.id ? -1 : 1)));
    const numbers = (await bed.t.db.sql`select sequence from credit_notes where invoice_id = ${invoice} order by sequence`).map((r) =>
      BigInt(r.sequence),
    );
    expect(numbers.at(-1)! - numbers[0]!).toBe(BigInt(fits - 1));
  }, 60_000);
});

describe("Idempotency-Key", () => {
  test("the same key and body replay the original refund and record one; another body with the key is 422", async () => {
    const invoice = await bed.paidInvoice("anvil", 50_000_000n);
    const hash = await send(merchant, usdc, customer, 5_000_000n);
    const otherHash = await send(merchant, usdc, customer, 5_000_000n);
    await confirm();
    const headers = { "idempotency-key": crypto.randomUUID() };
    const first = await bed.refund(invoice, body(5, hash), { headers });
    expect(first.status).toBe(201);
    const again = await bed.refund(invoice, body(5, hash), { headers });
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    const once = await bed.recorded(invoice);
    expect(once).toMatchObject({ refunds: 1, amountRefunded: "5000000" });
    await expectRefused(bed, invoice, await bed.refund(invoice, body(5, otherHash), { headers }), 422, "idempotency_key_reused", once);
    // Without the key, a retry is a second request: the hash has proved a refund already.
    await expectRefused(bed, invoice, await bed.refund(invoice, body(5, hash)), 409, "refund_replayed", once);
  });

  test("two requests racing with one key: one refund recorded, the other told the key is in use or replayed", async () => {
    const invoice = await bed.paidInvoice("anvil", 50_000_000n);
    const hash = await send(merchant, usdc, customer, 5_000_000n);
    await confirm();
    const headers = { "idempotency-key": crypto.randomUUID() };
    const answers = await Promise.all([bed.refund(invoice, body(5, hash), { headers }), bed.refund(invoice, body(5, hash), { headers })]);
    expect(answers.map((a) => a.status).sort()).toEqual(answers.some((a) => a.status === 409) ? [201, 409] : [201, 201]);
    for (const a of answers.filter((x) => x.status === 409)) expect(a.body.code).toBe("idempotency_key_in_use");
    expect(await bed.recorded(invoice)).toMatchObject({ refunds: 1, amountRefunded: "5000000" });
  });
});
