/**
 * The sections of the invoice PDF, top to bottom: title and status, seller and buyer, dates, line items
 * (pdf-lines.ts), totals (paid, credited, refunded, outstanding), how to pay, then what happened: payments (network and
 * transaction hash), credit notes, refunds. Amounts are the API's decimal strings with the invoice's
 * currency, so the PDF and GET /invoices/{id} say the same numbers. Hashes and wallets print whole, in
 * Courier, on a line of their own (a hash cut across two lines cannot be copied or searched).
 */
import { pdfText } from "./pdf-text";
import type { DocumentSource } from "./source";

type Doc = PDFKit.PDFDocument;
type Invoice = DocumentSource["invoice"];

const GREY = "#555555";
const RULE = "#cccccc";
const date = (iso: string | null | undefined) => (iso ? iso.slice(0, 10) : "-");
const money = (amount: string, invoice: Invoice) => `${amount} ${pdfText(invoice.currency)}`;
const left = (doc: Doc) => doc.page.margins.left;
const contentWidth = (doc: Doc) => doc.page.width - doc.page.margins.left - doc.page.margins.right;

export function heading(doc: Doc, title: string) {
  doc.moveDown(1.2);
  // A heading never sits alone at the foot of a page.
  if (doc.y > doc.page.height - doc.page.margins.bottom - 60) doc.addPage();
  doc.font("Helvetica-Bold").fontSize(11).fillColor("#000000").text(title, left(doc), doc.y);
  const y = doc.y + 2;
  doc
    .moveTo(left(doc), y)
    .lineTo(left(doc) + contentWidth(doc), y)
    .lineWidth(0.5)
    .strokeColor(RULE)
    .stroke();
  doc.y = y + 4;
  doc.font("Helvetica").fontSize(9);
}

/** Text lines in one column starting at (x, y); returns the y below them. */
function column(doc: Doc, x: number, y: number, width: number, title: string, lines: (string | null)[]): number {
  doc.font("Helvetica-Bold").fontSize(9).fillColor(GREY).text(title, x, y, { width });
  doc.font("Helvetica").fontSize(9.5).fillColor("#000000");
  for (const line of lines) if (line) doc.text(pdfText(line), { width });
  return doc.y;
}

export function header(doc: Doc, { invoice, seller }: DocumentSource) {
  const top = doc.y;
  doc.font("Helvetica-Bold").fontSize(22).fillColor("#000000").text("INVOICE", left(doc), top);
  doc.font("Helvetica").fontSize(10).fillColor(GREY).text(pdfText(seller.name));
  const right = { width: contentWidth(doc), align: "right" as const };
  doc
    .font("Helvetica-Bold")
    .fontSize(13)
    .fillColor("#000000")
    .text(pdfText(invoice.number), left(doc), top + 2, right);
  doc
    .font("Helvetica-Bold")
    .fontSize(10)
    .fillColor(invoice.status === "VOID" || invoice.status === "OVERDUE" ? "#cc0000" : GREY);
  doc.text(`Status: ${invoice.status}`, right);
  doc.font("Helvetica").fontSize(9).fillColor("#000000");
  const dates: [string, string | null | undefined][] = [
    ["Issued", invoice.issuedAt],
    ["Due", invoice.dueAt],
    ["Paid", invoice.paidAt],
  ];
  if (invoice.voidedAt) dates.push(["Voided", invoice.voidedAt]);
  for (const [label, value] of dates) doc.text(`${label}: ${date(value)}`, right);
  if (invoice.status === "DRAFT") doc.fillColor("#cc0000").text("DRAFT - not a demand for payment", right).fillColor("#000000");
  doc.y += 10;
}

export function parties(doc: Doc, { invoice, seller }: DocumentSource) {
  const half = contentWidth(doc) / 2 - 10;
  const top = doc.y + 6;
  const a = column(doc, left(doc), top, half, "FROM", [seller.name, seller.address, seller.taxId && `Tax ID: ${seller.taxId}`, seller.email]);
  const b = column(doc, left(doc) + half + 20, top, half, "BILL TO", [
    invoice.customerName ?? (invoice.customerEmail || invoice.customerWallet ? null : "-"),
    invoice.customerEmail,
    invoice.customerWallet && `Wallet: ${invoice.customerWallet}`,
  ]);
  doc.y = Math.max(a, b);
  if (invoice.description) doc.moveDown(0.8).text(pdfText(invoice.description), left(doc), doc.y, { width: contentWidth(doc) });
}

export function totals(doc: Doc, { invoice }: DocumentSource) {
  const rows: [string, string, boolean?][] = [
    ["Subtotal", invoice.subtotal],
    ["Tax", invoice.taxTotal],
    ["Total", invoice.total, true],
    ["Amount paid", invoice.amountPaid],
    ["Amount credited", invoice.amountCredited],
    ["Amount refunded", invoice.amountRefunded],
    ["Amount outstanding", invoice.amountOutstanding, true],
  ];
  doc.moveDown(0.8);
  if (doc.y > doc.page.height - doc.page.margins.bottom - rows.length * 14) doc.addPage();
  const x = left(doc) + contentWidth(doc) - 260;
  for (const [label, value, strong] of rows) {
    const y = doc.y;
    doc
      .font(strong ? "Helvetica-Bold" : "Helvetica")
      .fontSize(9.5)
      .fillColor("#000000");
    doc.text(label, x, y, { width: 110 });
    doc.text(money(value, invoice), x + 110, y, { width: 150, align: "right" });
  }
}

export function instructions(doc: Doc, { invoice, settlementWallet }: DocumentSource) {
  if (!(invoice.status === "ISSUED" || invoice.status === "OVERDUE") || !invoice.network || !settlementWallet) return;
  heading(doc, "How to pay");
  doc.text(`Send ${money(invoice.amountOutstanding, invoice)} on ${pdfText(invoice.network)} to:`, left(doc), doc.y, { width: contentWidth(doc) });
  doc.font("Courier").fontSize(8.5).text(pdfText(settlementWallet)).font("Helvetica").fontSize(9);
  doc.text(`Reference: ${pdfText(invoice.number)}`);
}

/** One entry: a summary line, then each code (hash, wallet) on a line of its own. */
function entry(doc: Doc, summary: string, codes: [string, string][]) {
  if (doc.y > doc.page.height - doc.page.margins.bottom - 14 * (1 + codes.length)) doc.addPage();
  doc
    .font("Helvetica")
    .fontSize(9)
    .fillColor("#000000")
    .text(pdfText(summary), left(doc), doc.y, { width: contentWidth(doc) });
  for (const [label, code] of codes) {
    doc
      .font("Helvetica")
      .fontSize(8)
      .fillColor(GREY)
      .text(`${label} `, left(doc) + 12, doc.y, { continued: true, lineBreak: false });
    doc.font("Courier").fontSize(7.5).fillColor("#000000").text(pdfText(code));
  }
  doc.moveDown(0.4);
}

export function paymentsSection(doc: Doc, { invoice }: DocumentSource) {
  if (invoice.payments.length === 0) return;
  heading(doc, "Payments");
  for (const p of invoice.payments) {
    const excess = /^0\.0+$/.test(p.amountExcess) ? "" : `, ${money(p.amountExcess, invoice)} past the amount due to the customer's credit balance`;
    entry(doc, `${date(p.paidAt)}  ${money(p.amountApplied, invoice)} applied${excess} - ${p.currency} on ${p.network}`, [
      ["Tx hash", p.txHash],
      ["From", p.payer],
    ]);
  }
}

export function creditNotesSection(doc: Doc, { invoice }: DocumentSource) {
  if (invoice.creditNotes.length === 0) return;
  heading(doc, "Credit notes");
  for (const c of invoice.creditNotes)
    entry(
      doc,
      `${c.number}  ${date(c.createdAt)}  ${money(c.amount, invoice)} (credit ${c.creditAmount}, refund ${c.refundAmount}) - ${c.reason}`,
      [],
    );
}

export function refundsSection(doc: Doc, { invoice }: DocumentSource) {
  if (invoice.refunds.length === 0) return;
  heading(doc, "Refunds");
  for (const r of invoice.refunds)
    entry(doc, `${date(r.createdAt)}  ${money(r.amount, invoice)} refunded on ${r.network} - ${r.reason}`, [
      ["Tx hash", r.txHash],
      ["To", r.recipientWallet],
    ]);
}
