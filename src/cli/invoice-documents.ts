/**
 * `invoice pdf | pain013 | camt054`: an invoice's documents for an operator, rendered by the same functions
 * as the API's download links and dashboard export. The PDF is written to `--out`; the XML documents are
 * written to `--out` when given, else printed in the envelope (`{data: {invoiceId, number, xml}}`) like
 * every other command's result.
 */
import { camt054 } from "../modules/invoices/documents/camt054";
import { pain013 } from "../modules/invoices/documents/pain013";
import { invoicePdf } from "../modules/invoices/documents/pdf";
import { loadDocumentSource } from "../modules/invoices/documents/source";
import { ENVIRONMENT_OPTION, TEAM_OPTION, tenant } from "./args";
import { command, UsageError, type Args, type Context } from "./command";

const ID_OPTION = { id: { value: "<invoice id>", help: "in_…", required: true } };

function parseInput(a: Args) {
  if (a.out !== undefined && a.out.trim() === "") throw new UsageError("--out must name a file");
  return { tenant: tenant(a), id: a.id!, out: a.out };
}

type Input = ReturnType<typeof parseInput>;

/** Writes the document to `out` (and says where), or hands the XML back to be printed. */
async function deliver(input: Input, number: string, document: Uint8Array | string) {
  if (!input.out) return { invoiceId: input.id, number, xml: document };
  const bytes = await Bun.write(input.out, document);
  return { invoiceId: input.id, number, file: input.out, bytes };
}

const xmlCommand = (name: string, summary: string, build: typeof pain013) =>
  command({
    name,
    summary,
    options: {
      ...TEAM_OPTION,
      ...ENVIRONMENT_OPTION,
      ...ID_OPTION,
      out: { value: "<file>", help: "Write the XML there (default: print it in {data})" },
    },
    parse: parseInput,
    run: async (ctx: Context, i: Input) => {
      const source = await loadDocumentSource(ctx.sql, i.tenant, i.id);
      return deliver(i, source.invoice.number, build(source, new Date(ctx.now)));
    },
  });

export const invoiceDocumentCommands = [
  command({
    name: "invoice pdf",
    summary: "Write an invoice's PDF to a file (as its download link serves it)",
    options: {
      ...TEAM_OPTION,
      ...ENVIRONMENT_OPTION,
      ...ID_OPTION,
      out: { value: "<file>", help: "Where to write the PDF (binary: never printed)", required: true },
    },
    parse: parseInput,
    run: async (ctx, i) => {
      const source = await loadDocumentSource(ctx.sql, i.tenant, i.id);
      return deliver(i, source.invoice.number, await invoicePdf(source));
    },
  }),
  xmlCommand("invoice pain013", "An invoice as an ISO 20022 pain.013 request to pay (as its iso20022DownloadUrl serves it)", pain013),
  xmlCommand("invoice camt054", "An invoice's payments and refunds as an ISO 20022 camt.054 notification", camt054),
];
