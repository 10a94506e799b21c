/**
 * pain.013 (the invoice as a request to pay) and camt.054 (its payments and refunds) are valid against the
 * ISO 20022 XSDs for invoices in every state and shape, and carry the mapping docs/invoices.md#iso-20022-mapping
 * describes: peg currency or XXX, five-digit amounts with the exact amount in the text, 35-character ids,
 * whole tx hashes where the schema allows long text, wallets as accounts.
 */
import { describe, expect, test } from "bun:test";
import { createTestApp } from "../helpers/app";
import { createTeamFixture } from "../helpers/fixtures";
import { issuedInvoice, line } from "../helpers/invoices";
import { configureSeller, draftInvoice, etherInvoice, paidInvoice, USDC, voidedInvoice } from "../helpers/invoice-documents";
import { textsOf, xsdErrors } from "../helpers/iso20022";
import { camt054, renderCamt054 } from "../../src/modules/invoices/documents/camt054";
import { bounded, isoAmount, walletId } from "../../src/modules/invoices/documents/iso-common";
import { isoCurrencyOf } from "../../src/modules/invoices/documents/iso-currency";
import { pain013, renderPain013 } from "../../src/modules/invoices/documents/pain013";
import { loadDocumentSource } from "../../src/modules/invoices/documents/source";
import { MAX_MICRO } from "../../src/lib/money";
import type { Tenant } from "../../src/lib/tenant";

const t = await createTestApp();
const sql = t.db.sql;
const chains = t.config.chains;
const team = await createTeamFixture(t);
const tenant: Tenant = { teamId: team.teamId, environment: "development" };
const now = new Date("2026-03-01T10:00:00.000Z");
const later = new Date("2026-03-05T08:30:00.000Z");
const WALLET = `0x${"5e".repeat(20)}`;
await configureSeller(sql, tenant, { wallet: WALLET });

async function documents(id: string) {
  const pain = await renderPain013(sql, tenant, id, later);
  const camt = await renderCamt054(sql, tenant, id, later);
  expect(await xsdErrors("pain.013.001.08", pain)).toEqual([]);
  expect(await xsdErrors("camt.054.001.08", camt)).toEqual([]);
  for (const name of ["MsgId", "EndToEndId", "PmtInfId", "NtryRef", "TxId", "AcctSvcrRef", "Nb"])
    for (const value of [...textsOf(pain, name), ...textsOf(camt, name)]) expect([...value].length).toBeLessThanOrEqual(35);
  return { pain, camt };
}

describe("pain.013.001.08", () => {
  test("an open invoice: the outstanding amount at 5 digits in USD, the exact amount, token and network in Ustrd, due date", async () => {
    const invoice = await issuedInvoice(sql, chains, tenant, now, [line(12_345_675n, 1n, 0n, "Rounding")], {
      network: "base-sepolia",
      customerName: "Globex",
      customerWallet: `0x${"c0".repeat(20)}`,
    });
    const { pain } = await documents(invoice.id);
    expect(textsOf(pain, "InstdAmt")).toEqual(["12.34568"]); // 12.345675, half away from zero
    expect(pain).toContain('<InstdAmt Ccy="USD">');
    expect(textsOf(pain, "Ustrd")[0]).toBe(`Invoice ${invoice.number}: pay 12.345675 USDC on base-sepolia`);
    expect(textsOf(pain, "Ustrd")[1]).toBe(`Pay to ${WALLET} on base-sepolia`);
    expect(textsOf(pain, "EndToEndId")).toEqual([invoice.number]);
    expect(textsOf(pain, "MsgId")[0]).toStartWith(`${invoice.id.slice(0, 20)}`);
    expect(textsOf(pain, "Dt")).toEqual(["2026-03-31"]);
    expect(textsOf(pain, "CreDtTm")).toEqual([later.toISOString()]);
    // Wallets: abbreviated in Othr/Id (34 characters at most), whole in Prxy/Id; the debtor's and the seller's.
    expect(textsOf(pain, "Id")).toEqual(expect.arrayContaining([walletId(WALLET), WALLET, `0x${"c0".repeat(20)}`, "DE123456789", "base-sepolia"]));
    expect(textsOf(pain, "Nm")).toEqual(["Acme Billing GmbH", "Globex", "Acme Billing GmbH"]);
    expect(textsOf(pain, "AdrLine")).toEqual(["Hauptstraße 1", "10115 Berlin"]);
  });

  test("a paid invoice asks nothing; its structured remittance keeps total, tax, credited and paid", async () => {
    const s = await paidInvoice(sql, chains, tenant, now);
    const { pain } = await documents(s.id);
    expect(textsOf(pain, "InstdAmt")).toEqual(["0.00000"]);
    expect(textsOf(pain, "DuePyblAmt")).toEqual(["23.22500"]);
    // credited counts credit parts only (the refund's credit note is money returned, not a lower demand):
    // 23.225 due - 0.225 credited - 23 paid = nothing outstanding
    expect(textsOf(pain, "CdtNoteAmt")).toEqual(["0.22500"]);
    expect(textsOf(pain, "RmtdAmt")).toEqual(["23.00000"]);
    expect(textsOf(pain, "Cd")).toEqual(expect.arrayContaining(["CINV", "TXID"]));
    expect(pain).not.toContain("Pay to");
  });

  test("a draft: the total it will ask, due after the payment terms from today, said to be a draft", async () => {
    const draft = await draftInvoice(sql, chains, tenant, now);
    const { pain } = await documents(draft.id);
    expect(textsOf(pain, "InstdAmt")).toEqual(["21.00000"]);
    expect(textsOf(pain, "Dt")).toEqual(["2026-04-04"]); // later + 30 days
    expect(textsOf(pain, "Ustrd")[0]).toBe(`Draft DRAFT-${draft.id}, not a demand for payment: 21.000000 USDC`);
    expect(pain).not.toContain("<RltdDt>");
  });

  test("a voided invoice asks nothing", async () => {
    const voided = await voidedInvoice(sql, chains, tenant, now);
    const { pain } = await documents(voided.id);
    expect(textsOf(pain, "InstdAmt")).toEqual(["0.00000"]);
    expect(textsOf(pain, "Ustrd")[0]).toStartWith(`Invoice ${voided.number} is void`);
  });

  test("unicode and overlong names: kept as written (UTF-8), cut to 140 characters with …", async () => {
    const name = `Zoë 東京 🚀 ${"Ünïcødé ".repeat(23)}`; // 195 characters (the column holds 200)
    const invoice = await issuedInvoice(sql, chains, tenant, now, [line(USDC, 1n, 0n, `Ωmega ${"x".repeat(480)}`)], { customerName: name });
    const { pain } = await documents(invoice.id);
    const debtor = textsOf(pain, "Nm")[1]!;
    expect([...debtor].length).toBe(140);
    expect(debtor).toStartWith("Zoë 東京 🚀 Ünïcødé");
    expect(debtor).toEndWith("…");
    expect(bounded("a\u0001b\ud800c", 35)).toBe("a b c");
  });

  test("an 18-decimal token without a peg: Ccy XXX, the token named in the text", async () => {
    const s = await etherInvoice(sql, chains, tenant, now);
    const { pain, camt } = await documents(s.id);
    expect(pain).toContain('<InstdAmt Ccy="XXX">1.11111</InstdAmt>'); // 1.234567 - 0.123457
    expect(textsOf(pain, "Ustrd")[0]).toContain("pay 1.111110 ETH on base-sepolia");
    expect(camt).toContain('<Amt Ccy="XXX">0.12346</Amt>');
    expect(textsOf(camt, "AddtlTxInf")[0]).toContain("(123456789012345678 ETH base units)");
    expect(textsOf(camt, "AddtlTxInf")[0]).toContain(s.paymentHashes[0]!);
  });

  test("the largest invoice amount still fits the schema's 18 digits", async () => {
    const source = await loadDocumentSource(sql, tenant, (await draftInvoice(sql, chains, tenant, now)).id);
    const huge = { ...source, invoice: { ...source.invoice, total: "9223372036854.775807" } };
    const xml = pain013(huge, later);
    expect(textsOf(xml, "InstdAmt")).toEqual([isoAmount(MAX_MICRO)]);
    expect(isoAmount(MAX_MICRO)).toBe("9223372036854.77581");
    expect(await xsdErrors("pain.013.001.08", xml)).toEqual([]);
  });
});

describe("camt.054.001.08", () => {
  test("every payment a booked credit, every refund a debit, in time order; whole hashes in the long texts", async () => {
    const s = await paidInvoice(sql, chains, tenant, now);
    const { camt } = await documents(s.id);
    const number = textsOf(camt, "Id")[0]!;
    expect(number).toMatch(/^INV-\d{6}$/);
    expect(textsOf(camt, "CdtDbtInd")).toEqual(["CRDT", "CRDT", "CRDT", "CRDT", "DBIT", "DBIT"]); // entry and its transaction each
    expect(textsOf(camt, "Amt").filter((_, i) => i % 2 === 0)).toEqual(["20.00000", "3.00000", "1.50000"]); // 3.000001 at 5 digits
    const details = textsOf(camt, "AddtlTxInf");
    expect(details[0]).toContain(`Tx ${s.paymentHashes[0]} on base-sepolia`);
    expect(details[1]).toContain(`Tx ${s.paymentHashes[1]} on base-sepolia`);
    expect(details[1]).toContain("3.000001 USDC received (3000001 USDC base units): 3.000000 applied");
    expect(details[1]).toContain("0.000001 to the customer's credit balance");
    expect(details[2]).toContain(`Tx ${s.refundHash} on base-sepolia`);
    expect(details[2]).toContain("1.500000 USDC refunded");
    expect(textsOf(camt, "AddtlNtryInf")).toEqual([...s.paymentHashes, s.refundHash].map((h) => `Tx ${h} on base-sepolia`));
    expect(textsOf(camt, "Cd")).toEqual(expect.arrayContaining(["BOOK", "PMNT", "RCDT", "ICDT", "CINV", "CREN", "CHAIN-TRANSFER"]));
    expect(textsOf(camt, "EndToEndId")).toEqual([number, number, number]);
    expect(textsOf(camt, "Ccy")).toEqual(["USD"]);
  });

  test("an invoice without payments (a draft, no network, no wallet): a valid notification with no entries", async () => {
    const draft = await draftInvoice(sql, chains, tenant, now);
    const { camt } = await documents(draft.id);
    expect(camt).not.toContain("<Ntry>");
    expect(textsOf(camt, "Prtry")).toEqual(["NETWORK"]);
  });
});

describe("mapping rules", () => {
  test("peg currencies: USDC and the common stablecoins to their currency, anything else XXX", () => {
    expect(["USDC", "usdc", "USDT", "EURC", "ETH", "XLM", "SOL", "WBTC"].map(isoCurrencyOf)).toEqual([
      "USD",
      "USD",
      "USD",
      "EUR",
      "XXX",
      "XXX",
      "XXX",
      "XXX",
    ]);
  });

  test("wallet ids: as they are up to 34 characters, else 16 + … + 17", () => {
    const stellar = `G${"A".repeat(55)}`;
    const solana = "4zMMC9srt5Ri5X14GAgXhaHii3GnPAEERYPJgZJDncDU";
    for (const w of [WALLET, stellar, solana]) expect([...walletId(w)].length).toBe(34);
    expect(walletId("short-wallet")).toBe("short-wallet");
    expect(walletId(WALLET)).toBe(`${WALLET.slice(0, 16)}…${WALLET.slice(-17)}`);
  });

  test("the validator is not vacuous: a token in Ccy, a 6-digit amount, a 36-character id are each refused", async () => {
    const s = await paidInvoice(sql, chains, tenant, now);
    const pain = await renderPain013(sql, tenant, s.id, later);
    const camt = camt054(await loadDocumentSource(sql, tenant, s.id), later);
    expect(await xsdErrors("pain.013.001.08", pain.replace('Ccy="USD"', 'Ccy="USDC"'))).not.toEqual([]);
    expect(await xsdErrors("pain.013.001.08", pain.replace(/<InstdAmt Ccy="USD">[^<]*</, '<InstdAmt Ccy="USD">0.000001<'))).not.toEqual([]);
    expect(await xsdErrors("camt.054.001.08", camt.replace(/<NtryRef>[^<]*</, `<NtryRef>${"x".repeat(36)}<`))).not.toEqual([]);
  });
});
