/**
 * The line-items table of the invoice PDF, laid out by hand: each row as tall as its longest cell (long
 * descriptions wrap), a row that does not fit starts a new page, and every page's part of the table starts
 * with the header row. (pdfkit's `doc.table()` does the same at about 2.5 times the cost of the whole rest of
 * the document, and does not repeat the header; bench/invoice-documents.ts measures the PDF.)
 */
import { heading } from "./pdf-sections";
import { pdfText } from "./pdf-text";
import type { DocumentSource } from "./source";

type Doc = PDFKit.PDFDocument;

const COLUMNS = [
  { title: "Description", width: 175, align: "left" },
  { title: "Qty", width: 30, align: "right" },
  { title: "Unit amount", width: 80, align: "right" },
  { title: "Tax %", width: 45, align: "right" },
  { title: "Tax", width: 75, align: "right" },
  { title: "Line total", width: 90, align: "right" },
] as const;
const PAD = 3;
const FONT_SIZE = 9;

function row(doc: Doc, cells: readonly string[], font: "Helvetica" | "Helvetica-Bold", shaded: boolean) {
  doc.font(font).fontSize(FONT_SIZE).fillColor("#000000");
  const height = Math.max(...cells.map((cell, i) => doc.heightOfString(cell, { width: COLUMNS[i]!.width - 2 * PAD }))) + 2 * PAD;
  const left = doc.page.margins.left;
  const width = COLUMNS.reduce((sum, c) => sum + c.width, 0);
  if (doc.y + height > doc.page.height - doc.page.margins.bottom) {
    doc.addPage();
    if (font !== "Helvetica-Bold")
      row(
        doc,
        COLUMNS.map((c) => c.title),
        "Helvetica-Bold",
        true,
      );
    doc.font(font).fontSize(FONT_SIZE);
  }
  const top = doc.y;
  if (shaded) doc.rect(left, top, width, height).fill("#f0f0f0").fillColor("#000000");
  let x = left;
  for (const [i, cell] of cells.entries()) {
    const column = COLUMNS[i]!;
    doc.text(cell, x + PAD, top + PAD, { width: column.width - 2 * PAD, align: column.align });
    x += column.width;
  }
  doc
    .moveTo(left, top + height)
    .lineTo(left + width, top + height)
    .lineWidth(0.5)
    .strokeColor("#cccccc")
    .stroke();
  doc.x = left;
  doc.y = top + height;
}

export function linesTable(doc: Doc, { invoice }: DocumentSource) {
  heading(doc, "Line items");
  row(
    doc,
    COLUMNS.map((c) => c.title),
    "Helvetica-Bold",
    true,
  );
  for (const l of invoice.lineItems)
    row(doc, [pdfText(l.description), String(l.quantity), l.unitAmount, l.taxRate, l.lineTax, l.lineTotal], "Helvetica", false);
}
