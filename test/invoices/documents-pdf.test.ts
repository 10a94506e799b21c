/**
 * The invoice PDF opens and says what the invoice says: its text, extracted with pdf.js (unpdf), holds the
 * number, seller, buyer, line amounts, totals, paid/credited/refunded/outstanding, payment and refund
 * hashes with their network, credit notes, the footer, and DRAFT or VOID where they apply.
 */
import { describe, expect, test } from "bun:test";
import { extractText, getDocumentProxy } from "unpdf";
import { createTestApp } from "../helpers/app";
import { createTeamFixture } from "../helpers/fixtures";
import { issuedInvoice, line } from "../helpers/invoices";
import { configureSeller, draftInvoice, etherInvoice, paidInvoice, USDC, voidedInvoice } from "../helpers/invoice-documents";
import { renderInvoicePdf } from "../../src/modules/invoices/documents/pdf";
import { pdfText } from "../../src/modules/invoices/documents/pdf-text";
import { findInvoice } from "../../src/modules/invoices/repo";
import type { Tenant } from "../../src/lib/tenant";

const t = await createTestApp();
const sql = t.db.sql;
const chains = t.config.chains;
const team = await createTeamFixture(t);
const tenant: Tenant = { teamId: team.teamId, environment: "development" };
const now = new Date("2026-03-01T10:00:00.000Z");
await configureSeller(sql, tenant);

async function pdfOf(invoiceId: string, who: Tenant = tenant) {
  const bytes = await renderInvoicePdf(sql, who, invoiceId);
  expect(new TextDecoder().decode(bytes.slice(0, 5))).toBe("%PDF-");
  const pdf = await getDocumentProxy(bytes);
  const { totalPages, text } = await extractText(pdf, { mergePages: true });
  return { pages: totalPages, text: text.replace(/\s+/g, " ") };
}
const numberOf = async (id: string) => (await findInvoice(sql, tenant, id))!.number;

describe("renderInvoicePdf", () => {
  test("a paid invoice: seller, buyer, lines, totals, payments with network and hash, credit notes, refund, footer", async () => {
    const s = await paidInvoice(sql, chains, tenant, now);
    const { text, pages } = await pdfOf(s.id);
    expect(pages).toBe(1);
    for (const expected of [
      await numberOf(s.id),
      "Status: PAID",
      "Issued: 2026-03-01",
      "Due: 2026-03-31",
      "Acme Billing GmbH",
      "Hauptstraße 1",
      "Tax ID: DE123456789",
      "billing@acme.test",
      "Globex Corporation",
      "ap@globex.test",
      `Wallet: 0x${"c0".repeat(20)}`,
      "Pro plan",
      "12.500000",
      "Extra seats",
      "7.2500",
      "0.725000",
      "10.725000",
      "Subtotal 22.500000 USDC",
      "Total 23.225000 USDC",
      "Amount paid 23.000000 USDC",
      "Amount credited 0.225000 USDC",
      "Amount refunded 1.500000 USDC",
      "Amount outstanding 0.000000 USDC",
      "20.000000 USDC applied",
      "0.000001 USDC past the amount due",
      "USDC on base-sepolia",
      ...s.paymentHashes,
      s.refundHash!,
      "Goodwill",
      "1.500000 USDC refunded on base-sepolia - Seat removed",
      "Thank you for your business.",
      "Page 1 of 1",
    ])
      expect(text).toContain(expected);
    expect(text).toMatch(/CN-\d{6} 2026-03-01 0\.225000 USDC/);
    expect(text).not.toContain("DRAFT");
    expect(text).not.toContain("How to pay"); // nothing is owed
  });

  test("an open invoice says how to pay: the outstanding amount, its network and the settlement wallet", async () => {
    const invoice = await issuedInvoice(sql, chains, tenant, now, [line(12_500_000n)], { network: "base-sepolia" });
    const { text } = await pdfOf(invoice.id);
    expect(text).toContain("Status: ISSUED");
    expect(text).toContain(`Send 12.500000 USDC on base-sepolia to: 0x${"5e".repeat(20)}`);
    expect(text).toContain(`Reference: ${invoice.number}`);
  });

  test("a draft is marked DRAFT (label and watermark) with its provisional number and no dates", async () => {
    const draft = await draftInvoice(sql, chains, tenant, now);
    const { text } = await pdfOf(draft.id);
    expect(text).toContain(`DRAFT-${draft.id}`);
    expect(text).toContain("Status: DRAFT");
    expect(text).toContain("DRAFT - not a demand for payment");
    expect(text).toContain("Issued: - Due: -");
    expect(text).toContain("21.000000");
    expect(text.match(/DRAFT/g)!.length).toBeGreaterThanOrEqual(4); // number, status, label, watermark
  });

  test("a voided invoice carries VOID and its void date", async () => {
    const voided = await voidedInvoice(sql, chains, tenant, now);
    const { text } = await pdfOf(voided.id);
    expect(text).toContain("Status: VOID");
    expect(text).toContain("Voided: 2026-03-01");
    expect(text.match(/VOID/g)!.length).toBeGreaterThanOrEqual(2);
  });

  test("unicode: WinAnsi text prints as written, accents outside it lose their accent, other scripts become ?", async () => {
    const invoice = await issuedInvoice(sql, chains, tenant, now, [line(USDC, 1n, 0n, "Café crème – “special” €")], {
      customerName: "Zoë Ünïcødé Łódź 東京",
    });
    const { text } = await pdfOf(invoice.id);
    expect(text).toContain("Zoë Ünïcødé ?ódz ??");
    expect(text).toContain("Café crème – “special” €");
    expect(pdfText("Ωmega\tﬁn\u0301")).toBe("?mega fin");
  });

  test("200 lines of 500-character descriptions continue over pages, numbered, with every line and the totals", async () => {
    const lines = Array.from({ length: 200 }, (_, i) => line(1_000_001n, 1n, 0n, `Line ${i + 1} ${"lorem ipsum dolor ".repeat(27)}`.slice(0, 500)));
    const invoice = await issuedInvoice(sql, chains, tenant, now, lines);
    const { text, pages } = await pdfOf(invoice.id);
    expect(pages).toBeGreaterThan(10);
    expect(text).toContain(`Page ${pages} of ${pages}`);
    for (const n of [1, 100, 200]) expect(text).toContain(`Line ${n} lorem`);
    expect(text).toContain("Total 200.000200 USDC");
  });

  test("an 18-decimal token: amounts stay the invoice's six-digit decimals, in ETH", async () => {
    const s = await etherInvoice(sql, chains, tenant, now);
    const { text } = await pdfOf(s.id);
    expect(text).toContain("Vitalik's Workshop");
    expect(text).toContain("Total 1.234567 ETH");
    expect(text).toContain("Amount outstanding 1.111110 ETH");
    expect(text).toContain("ETH on base-sepolia");
    expect(text).toContain(s.paymentHashes[0]!);
  });

  test("another tenant's invoice, or none: 404 not_found, no document", async () => {
    const s = await draftInvoice(sql, chains, tenant, now);
    const other = await createTeamFixture(t);
    for (const [who, id] of [
      [{ teamId: other.teamId, environment: "development" }, s.id],
      [{ ...tenant, environment: "production" }, s.id],
      [tenant, "in_missing"],
    ] as const)
      await expect(renderInvoicePdf(sql, who, id)).rejects.toMatchObject({ code: "not_found" });
  });

  test("without invoice settings the seller is the team, by name", async () => {
    const other = await createTeamFixture(t);
    const otherTenant: Tenant = { teamId: other.teamId, environment: "development" };
    const invoice = await issuedInvoice(sql, chains, otherTenant, now, [line(USDC)]);
    const teamName = (await sql`select name from teams where id = ${other.teamId}`)[0]!.name as string;
    const { text } = await pdfOf(invoice.id, otherTenant);
    expect(text).toContain(`FROM ${teamName}`);
  });
});
