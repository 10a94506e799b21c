/**
 * What rendering an invoice's documents costs, without HTTP or the database (loading a document's source is
 * six small indexed queries; this is the part that scales with the invoice): the PDF (pdfkit), the pain.013
 * and the camt.054 (xmlbuilder2) of a typical invoice (10 lines, one payment, a seller with an address),
 * against two baselines measured in the same run: a trivial one-line pdfkit document (pdfkit's fixed cost:
 * fonts, document structure, compression) and JSON.stringify of the invoice's API record.
 *
 *   bun bench/invoice-documents.ts        BENCH_RUN_MS (1000) per run, BENCH_RUNS (5)
 *
 * Prints one JSON line per case (ops/s: the median and the fastest run, and µs per op) and a summary of
 * ratios. On a busy machine the fastest run is the steadier figure. Nothing is asserted.
 */
import PDFDocument from "pdfkit";
import { camt054 } from "../src/modules/invoices/documents/camt054";
import { pain013 } from "../src/modules/invoices/documents/pain013";
import { invoicePdf } from "../src/modules/invoices/documents/pdf";
import type { DocumentSource } from "../src/modules/invoices/documents/source";

const runMs = Number(process.env.BENCH_RUN_MS ?? 1000);
const runs = Number(process.env.BENCH_RUNS ?? 5);
const at = "2026-03-01T10:00:00.000Z";
const hash = `0x${"ab12".repeat(16)}`;

const lines = Array.from({ length: 10 }, (_, i) => ({
  description: `Service line ${i + 1}: monthly seat licence, support tier ${i % 3}`,
  quantity: i + 1,
  unitAmount: "12.500000",
  taxRate: "7.2500",
  lineSubtotal: `${(12.5 * (i + 1)).toFixed(6)}`,
  lineTax: "0.906250",
  lineTotal: "13.406250",
  kind: "item" as const,
}));

const source: DocumentSource = {
  seller: {
    name: "Acme Billing GmbH",
    address: "Hauptstraße 1\n10115 Berlin",
    taxId: "DE123456789",
    email: "billing@acme.test",
    footer: "Thank you.",
  },
  settlementWallet: `0x${"5e".repeat(20)}`,
  invoice: {
    id: "in_benchbenchbenchbenchbench",
    number: "INV-000042",
    status: "PAID",
    currency: "USDC",
    network: "base",
    companyId: "comp_bench",
    customerName: "Globex Corporation",
    customerEmail: "ap@globex.test",
    customerWallet: `0x${"c0".repeat(20)}`,
    description: "March 2026",
    subtotal: "687.500000",
    taxTotal: "9.062500",
    total: "696.562500",
    amountPaid: "696.562500",
    amountCredited: "0.000000",
    amountRefunded: "0.000000",
    amountOutstanding: "0.000000",
    paymentTermsDays: 30,
    dueAt: "2026-03-31T10:00:00.000Z",
    issuedAt: at,
    paidAt: at,
    voidedAt: null,
    planId: null,
    metadata: {},
    lineItems: lines,
    createdAt: at,
    payments: [
      {
        id: "pay_bench",
        network: "base",
        txHash: hash,
        currency: "USDC",
        tokenAmount: "696562500",
        amountApplied: "696.562500",
        amountExcess: "0.000000",
        payer: `0x${"c0".repeat(20)}`,
        checkoutSessionId: null,
        paidAt: at,
      },
    ],
    creditNotes: [],
    refunds: [],
    deliveries: [],
  },
};

function trivialPdf(): Promise<Uint8Array> {
  const doc = new PDFDocument({ size: "A4" });
  const chunks: Uint8Array[] = [];
  doc.on("data", (c: Uint8Array) => chunks.push(c));
  const done = new Promise<Uint8Array>((resolve) => doc.on("end", () => resolve(Buffer.concat(chunks))));
  doc.text("INV-000042");
  doc.end();
  return done;
}

const now = new Date(at);
const cases: [string, () => unknown][] = [
  ["pdf", () => invoicePdf(source)],
  ["pain013", () => pain013(source, now)],
  ["camt054", () => camt054(source, now)],
  ["baseline_trivial_pdf", () => trivialPdf()],
  ["baseline_json_stringify", () => JSON.stringify(source.invoice)],
];

async function measure(run: () => unknown): Promise<number[]> {
  const perRun: number[] = [];
  for (let r = 0; r < runs + 1; r++) {
    let ops = 0;
    const start = performance.now();
    while (performance.now() - start < runMs) {
      await run();
      ops++;
    }
    if (r > 0) perRun.push((ops * 1000) / (performance.now() - start)); // the first run warms up
  }
  return perRun.sort((a, b) => a - b);
}

const results: Record<string, { medianOps: number; fastestOps: number }> = {};
const pdfBytes = (await invoicePdf(source)).length;
for (const [name, run] of cases) {
  const perRun = await measure(run);
  const medianOps = perRun[Math.floor(perRun.length / 2)]!;
  const fastestOps = perRun[perRun.length - 1]!;
  results[name] = { medianOps, fastestOps };
  console.log(
    JSON.stringify({
      case: name,
      medianOpsPerS: Math.round(medianOps),
      fastestOpsPerS: Math.round(fastestOps),
      medianUsPerOp: Math.round(1e6 / medianOps),
      ...(name === "pdf" ? { pdfBytes } : {}),
    }),
  );
}
const ratio = (a: string, b: string) => Number((results[a]!.medianOps / results[b]!.medianOps).toPrecision(3));
console.log(
  JSON.stringify({
    summary: {
      pdf_vs_trivial_pdf: ratio("pdf", "baseline_trivial_pdf"),
      pdf_vs_json: ratio("pdf", "baseline_json_stringify"),
      pain013_vs_json: ratio("pain013", "baseline_json_stringify"),
      camt054_vs_json: ratio("camt054", "baseline_json_stringify"),
      pain013_vs_pdf: ratio("pain013", "pdf"),
    },
  }),
);
