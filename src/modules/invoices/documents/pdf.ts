/**
 * The invoice PDF, rendered in-process with pdfkit (no side service): A4, the PDF standard fonts
 * (Helvetica, Courier: nothing embedded), the sections of pdf-sections.ts in order, then a pass over every
 * page for what only the finished document knows: "Page n of m", the seller's footer, and the DRAFT or VOID
 * watermark across the page of an invoice that asks nothing (a draft is not yet a demand for payment; a
 * voided invoice is cancelled). Long descriptions wrap and many lines continue on further pages.
 */
import PDFDocument from "pdfkit";
import type { Db } from "../../../db/queries";
import type { Tenant } from "../../../lib/tenant";
import { linesTable } from "./pdf-lines";
import { creditNotesSection, header, instructions, parties, paymentsSection, refundsSection, totals } from "./pdf-sections";
import { pdfText } from "./pdf-text";
import { loadDocumentSource, type DocumentSource } from "./source";

export const PDF_MARGIN = 50;
const WATERMARKS: Partial<Record<DocumentSource["invoice"]["status"], string>> = { DRAFT: "DRAFT", VOID: "VOID" };

/** The PDF of a tenant's invoice (404 not_found when it has none of that id). */
export async function renderInvoicePdf(db: Db, tenant: Tenant, invoiceId: string): Promise<Uint8Array> {
  return invoicePdf(await loadDocumentSource(db, tenant, invoiceId));
}

/** The PDF of a loaded document source. */
export function invoicePdf(source: DocumentSource): Promise<Uint8Array<ArrayBuffer>> {
  const { invoice } = source;
  const doc = new PDFDocument({
    size: "A4",
    margin: PDF_MARGIN,
    bufferPages: true, // the last pass numbers the pages
    info: { Title: pdfText(`Invoice ${invoice.number}`), Author: pdfText(source.seller.name), Subject: pdfText(`Invoice ${invoice.number}`) },
  });
  const chunks: Uint8Array[] = [];
  doc.on("data", (chunk: Uint8Array) => chunks.push(chunk));
  const finished = new Promise<Uint8Array<ArrayBuffer>>((resolve, reject) => {
    doc.on("end", () => resolve(concat(chunks)));
    doc.on("error", reject);
  });
  header(doc, source);
  parties(doc, source);
  linesTable(doc, source);
  totals(doc, source);
  instructions(doc, source);
  paymentsSection(doc, source);
  creditNotesSection(doc, source);
  refundsSection(doc, source);
  decoratePages(doc, source);
  doc.end();
  return finished;
}

function decoratePages(doc: PDFKit.PDFDocument, source: DocumentSource) {
  const range = doc.bufferedPageRange();
  const watermark = WATERMARKS[source.invoice.status];
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    // Writing inside the bottom margin would start a new page: lift the margin while the footer is drawn.
    const bottom = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    const width = doc.page.width - 2 * PDF_MARGIN;
    const y = doc.page.height - PDF_MARGIN + 12;
    doc.font("Helvetica").fontSize(7.5).fillColor("#666666");
    if (source.seller.footer) doc.text(pdfText(source.seller.footer), PDF_MARGIN, y - 12, { width, height: 12, ellipsis: true, lineBreak: false });
    doc.text(`${pdfText(source.invoice.number)} - Page ${i - range.start + 1} of ${range.count}`, PDF_MARGIN, y, {
      width,
      align: "right",
      lineBreak: false,
    });
    if (watermark) drawWatermark(doc, watermark);
    doc.page.margins.bottom = bottom;
  }
  doc.fillColor("#000000").fillOpacity(1);
}

/** A large, pale word across the page's diagonal. */
function drawWatermark(doc: PDFKit.PDFDocument, word: string) {
  const cx = doc.page.width / 2;
  const cy = doc.page.height / 2;
  doc.save();
  doc.font("Helvetica-Bold").fontSize(120).fillColor("#cc0000").fillOpacity(0.12);
  const w = doc.widthOfString(word);
  doc.rotate(-40, { origin: [cx, cy] });
  doc.text(word, cx - w / 2, cy - 60, { lineBreak: false });
  doc.restore();
}

const concat = (chunks: Uint8Array[]): Uint8Array<ArrayBuffer> => new Uint8Array(Bun.concatArrayBuffers(chunks));
