/**
 * Property: whatever the line items (quantities, signed unit amounts, tax rates with four digits) and
 * whatever sequence of payments, credit notes, refunds and voids follows the issue, the invoice the API
 * presents (GET /invoices/{id}) satisfies BILLING.md's invariants after every step, matches a model kept
 * here to the micro-unit, and a refused step (with the code the model predicts) changes nothing.
 * Arithmetic here is written independently of src/lib/money: decimal strings are read digit for digit.
 */
import { expect, test } from "bun:test";
import fc from "fast-check";
import { createTestApp } from "../helpers/app";
import { createTeamFixture } from "../helpers/fixtures";
import { inTx, invoiceInput, payInvoice } from "../helpers/invoices";
import { createInvoice, voidInvoice } from "../../src/modules/invoices/lifecycle/transitions";
import { createCreditNote } from "../../src/modules/invoices/credit-notes/create";
import { recordRefund } from "../../src/modules/invoices/refunds/record";
import { upsertCompany } from "../../src/modules/customers/identify";
import type { LineInput } from "../../src/modules/invoices/compute";
import type { Tenant } from "../../src/lib/tenant";

const t = await createTestApp();
const sql = t.db.sql;
const chains = t.config.chains;
const team = await createTeamFixture(t);
const tenant: Tenant = { teamId: team.teamId, environment: "development" };
const { company } = await sql.begin((tx) => upsertCompany(tx, tenant, { id: "prop-co", name: "Property Co" }));

/** "-12.345678" -> -12345678n; the API's decimal strings must have exactly `scale` fractional digits. */
function units(text: string, scale: number): bigint {
  expect(text).toMatch(new RegExp(`^-?\\d+\\.\\d{${scale}}$`));
  return BigInt(text.replace(".", ""));
}
/** n / d rounded half away from zero. */
function roundHalfAway(n: bigint, d: bigint): bigint {
  const sign = n < 0n ? -1n : 1n;
  const a = n * sign;
  return sign * (a / d + (2n * (a % d) >= d ? 1n : 0n));
}
const max = (a: bigint, b: bigint) => (a > b ? a : b);
const min = (a: bigint, b: bigint) => (a < b ? a : b);

type Step = { kind: "pay" | "credit" | "refund"; bp: number } | { kind: "void" };
interface Model {
  total: bigint;
  paid: bigint;
  credited: bigint;
  refunded: bigint;
  status: string;
  withCompany: boolean;
}

const lineArb = fc.record({
  quantity: fc.oneof(
    { weight: 4, arbitrary: fc.bigInt({ min: 1n, max: 20n }) },
    { weight: 1, arbitrary: fc.bigInt({ min: 1n, max: 1_000_000_000n }) },
  ),
  unitAmount: fc.oneof(
    { weight: 4, arbitrary: fc.bigInt({ min: 0n, max: 50_000_000n }) },
    { weight: 1, arbitrary: fc.bigInt({ min: -5_000_000n, max: -1n }) },
    // A few micro-units: with the round rates below, taxes of exactly half a micro-unit (ties), either sign.
    { weight: 2, arbitrary: fc.bigInt({ min: -30n, max: 30n }) },
  ),
  taxRate: fc.oneof(fc.constantFrom(0n, 50_000n, 250_000n, 500_000n, 72_500n, 88_750n, 1_000_000n), fc.bigInt({ min: 0n, max: 1_000_000n })),
});
const stepArb: fc.Arbitrary<Step> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constant("pay" as const), bp: fc.integer({ min: 1, max: 13_000 }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("credit" as const), bp: fc.integer({ min: 1, max: 13_000 }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("refund" as const), bp: fc.integer({ min: 1, max: 13_000 }) }) },
  { weight: 1, arbitrary: fc.constant({ kind: "void" as const }) },
);

/** What the model says a step does: the new model, or the code it must be refused with. */
function predict(m: Model, step: Step, amount: bigint): { next: Model } | { refused: string } {
  const open = m.status === "ISSUED" || m.status === "OVERDUE";
  const outstanding = max(0n, m.total - m.paid - m.credited);
  const settle = (n: Model) => ({ ...n, status: open && n.total - n.paid - n.credited <= 0n ? "PAID" : n.status });
  switch (step.kind) {
    case "pay":
      if (m.status === "VOID") return { refused: "invoice_not_payable" };
      return { next: settle({ ...m, paid: m.paid + min(amount, outstanding) }) };
    case "credit":
      if (m.status === "VOID") return { refused: "invoice_not_creditable" };
      if (amount > m.total - m.credited - m.refunded) return { refused: "credit_exceeds_total" };
      if (amount > outstanding && !m.withCompany) return { refused: "credit_exceeds_outstanding" };
      return { next: settle({ ...m, credited: m.credited + amount }) };
    case "refund": {
      if (m.status === "VOID" || m.paid === 0n) return { refused: "invoice_not_refundable" };
      if (amount > min(m.paid - m.refunded, m.total - m.credited - m.refunded)) return { refused: "refund_exceeds_paid" };
      return { next: { ...m, refunded: m.refunded + amount } };
    }
    case "void":
      if (m.status === "VOID") return { next: m };
      if (m.paid > 0n || m.status === "PAID") return { refused: "invoice_not_voidable" };
      return { next: { ...m, status: "VOID" } };
  }
}

const hex = () => [...crypto.getRandomValues(new Uint8Array(32))].map((b) => b.toString(16).padStart(2, "0")).join("");

async function perform(id: string, step: Step, amount: bigint): Promise<void> {
  const now = new Date(t.clock.now());
  if (step.kind === "pay") await payInvoice(sql, chains, tenant, now, id, amount);
  if (step.kind === "credit")
    await inTx(sql, chains, tenant, now, (c) => createCreditNote(c, id, { reason: "Property credit", creditAmount: amount }));
  if (step.kind === "void") await inTx(sql, chains, tenant, now, (c) => voidInvoice(c, id));
  if (step.kind === "refund")
    await inTx(sql, chains, tenant, now, (c) =>
      recordRefund(c, id, {
        amount,
        reason: "Property refund",
        network: "base-sepolia",
        txHash: `0x${hex()}`,
        senderWallet: "0x2222222222222222222222222222222222222222",
        recipientWallet: "0x1111111111111111111111111111111111111111",
        tokenSymbol: "USDC",
        tokenAmount: amount,
        blockNumber: 1n,
      }),
    );
}

/** Every invariant of the presented invoice, and its agreement with the model and the lines it was made of. */
function checkInvariants(inv: any, lines: LineInput[], m: Model): void {
  let subtotal = 0n;
  let tax = 0n;
  expect(inv.lineItems).toHaveLength(lines.length);
  inv.lineItems.forEach((l: any, i: number) => {
    const q = BigInt(l.quantity);
    const unit = units(l.unitAmount, 6);
    const rate = units(l.taxRate, 4);
    expect([q, unit, rate]).toEqual([lines[i]!.quantity, lines[i]!.unitAmount, lines[i]!.taxRate]);
    const lineSubtotal = units(l.lineSubtotal, 6);
    const lineTax = units(l.lineTax, 6);
    expect(lineSubtotal).toBe(q * unit);
    expect(lineTax).toBe(roundHalfAway(lineSubtotal * rate, 1_000_000n)); // rate/100 in 1/10000 %: x rate / 10^6
    expect(units(l.lineTotal, 6)).toBe(lineSubtotal + lineTax);
    subtotal += lineSubtotal;
    tax += lineTax;
  });
  const [total, paid, credited, refunded, outstanding] = ["total", "amountPaid", "amountCredited", "amountRefunded", "amountOutstanding"].map((f) =>
    units(inv[f], 6),
  ) as [bigint, bigint, bigint, bigint, bigint];
  expect([units(inv.subtotal, 6), units(inv.taxTotal, 6), total]).toEqual([subtotal, tax, subtotal + tax]);
  // A void invoice asks for nothing; any other: what is left of its total.
  expect(outstanding).toBe(inv.status === "VOID" ? 0n : max(0n, total - paid - credited));
  expect(refunded <= paid).toBe(true);
  expect(credited + refunded <= total).toBe(true);
  const issued = ["ISSUED", "OVERDUE", "PAID"].includes(inv.status);
  if (issued) expect(inv.status === "PAID").toBe(outstanding === 0n);
  if (inv.status === "VOID") expect(paid).toBe(0n);
  // What was recorded against it adds up to its amounts.
  const sum = (xs: any[], f: string) => xs.reduce((s, x) => s + units(x[f], 6), 0n);
  expect(sum(inv.payments, "amountApplied")).toBe(paid);
  expect(sum(inv.creditNotes, "creditAmount")).toBe(credited);
  expect(sum(inv.creditNotes, "refundAmount")).toBe(refunded);
  expect(sum(inv.refunds, "amount")).toBe(refunded);
  // Not a micro-unit of drift from the model.
  expect({ total, paid, credited, refunded, status: inv.status }).toEqual({
    total: m.total,
    paid: m.paid,
    credited: m.credited,
    refunded: m.refunded,
    status: m.status,
  });
}

const read = async (id: string) => {
  const res = await t.call("GET", `/invoices/${id}`, { token: team.keys.secret });
  expect(res.status).toBe(200);
  return res.body.invoice;
};

test("random lines, then random payments, credit notes, refunds and voids: the presented invoice keeps every invariant", async () => {
  const codes = new Map<string, number>();
  await fc.assert(
    fc.asyncProperty(
      fc.array(lineArb, { minLength: 1, maxLength: 6 }),
      fc.array(stepArb, { maxLength: 12 }),
      fc.boolean(),
      async (raw, steps, withCompany) => {
        const lines: LineInput[] = raw.map((l, i) => ({ ...l, description: `Line ${i}` }));
        const total = lines.reduce((s, l) => {
          const sub = l.quantity * l.unitAmount;
          return s + sub + roundHalfAway(sub * l.taxRate, 1_000_000n);
        }, 0n);
        fc.pre(total >= 0n);
        const now = new Date(t.clock.now());
        const invoice = await inTx(sql, chains, tenant, now, (c) =>
          createInvoice(c, invoiceInput(lines, withCompany ? { companyId: company.id } : {}), { issue: true }),
        );
        let model: Model = { total, paid: 0n, credited: 0n, refunded: 0n, status: total === 0n ? "PAID" : "ISSUED", withCompany };
        let shown = await read(invoice.id);
        checkInvariants(shown, lines, model);
        for (const step of steps) {
          // A share of the total (1 bp to 130%), at least one micro-unit.
          const amount = step.kind === "void" ? 0n : max(1n, (total * BigInt(step.bp)) / 10_000n);
          const expected = predict(model, step, amount);
          const outcome = await perform(invoice.id, step, amount).then(
            () => null,
            (e: { code?: string }) => e.code ?? String(e),
          );
          if ("refused" in expected) {
            expect({ step, amount, outcome }).toEqual({ step, amount, outcome: expected.refused });
            codes.set(expected.refused, (codes.get(expected.refused) ?? 0) + 1);
            expect(await read(invoice.id)).toEqual(shown); // a refused step changed nothing
            continue;
          }
          expect({ step, amount, outcome }).toEqual({ step, amount, outcome: null });
          model = expected.next;
          shown = await read(invoice.id);
          checkInvariants(shown, lines, model);
        }
      },
    ),
    { numRuns: 60 },
  );
  // The runs reached the refusals too, not only the happy paths.
  expect([...codes.keys()].sort()).toEqual(expect.arrayContaining(["credit_exceeds_total", "invoice_not_refundable", "refund_exceeds_paid"]));
}, 180_000);
