/**
 * The spec's invoice reads: GET /invoices (rule 8: sk_/rk_ with invoices.read; pk_ 403), GET /invoices/{id}
 * with its signed download links, GET /invoices/{id}/credit-notes. Decisions (credentials of the detail and
 * credit-note routes, `nextCursor` beside `invoices`) in docs/invoices.md#invoices and docs.ts.
 */
import { Elysia, t } from "elysia";
import { ErrorBody } from "../../http/error-schemas";
import { authPlugin, type AuthDeps } from "../../http/auth";
import { PageQuery } from "../../http/pagination";
import { ResourceIdParams } from "../../http/resource-id";
import type { Sql } from "../../db/client";
import type { Clock } from "../../lib/clock";
import { INVOICE_DOCS } from "./docs";
import { LINKS_EXAMPLE } from "./examples";
import { documentLinks, linkOrigin, NO_STORE, type LinkConfig } from "./documents/links";
import { readCreditNotes, readInvoiceDetail, readInvoicePage } from "./read";
import { CreditNote, Invoice, InvoiceDetail, InvoiceStatusSchema } from "./schemas";

/** What these routes need; the service's wiring (src/app-deps.ts) provides it. */
export type InvoiceRouteDeps = AuthDeps & { sql: Sql; clock: Clock; config: LinkConfig & { tokenSigningSecret: string } };

/** An invoice id; one of another shape is a 404 like an unknown one (src/http/resource-id.ts). */
export const InvoiceParams = ResourceIdParams("in", "No such invoice");

/** The list filters. */
const InvoiceFilterQuery = {
  status: t.Optional(InvoiceStatusSchema),
  q: t.Optional(
    t.String({
      minLength: 1,
      maxLength: 200,
      // No control characters: search_text joins its fields with one (chr 31), so a match stays inside one field.
      pattern: "^[^\\u0000-\\u001f\\u007f]+$",
      "x-expected": "Expected 1 to 200 characters, no control characters",
      description: "A substring of the invoice number, customer email or customer wallet, matched in any case (1 to 200 characters)",
    }),
  ),
};

/** GET /invoices' query, shared with the dashboard's list and the CLI's `invoice list`. */
export const InvoiceListQuery = t.Object({ ...PageQuery, ...InvoiceFilterQuery });

const NextCursor = t.Union([t.String(), t.Null()], {
  description: "Added to the spec's body: pass as `cursor` for the next page; null on the last page",
});

export const InvoiceWithLinks = {
  downloadUrl: t.String({
    description: "The PDF: an HMAC-signed link valid for 24 hours; the signature is its only credential",
    examples: [LINKS_EXAMPLE.downloadUrl],
  }),
  iso20022DownloadUrl: t.String({
    description: "An ISO 20022 pain.013 request to pay, signed the same way",
    examples: [LINKS_EXAMPLE.iso20022DownloadUrl],
  }),
};

const TAGS = ["Invoices"];

export function invoiceRoutes(deps: InvoiceRouteDeps) {
  const secret = deps.config.tokenSigningSecret;
  return new Elysia()
    .use(authPlugin(deps))
    .get(
      "/invoices",
      async ({ principal, query }) => {
        const page = await readInvoicePage(deps.sql, principal, { secret, list: "invoices" }, query);
        return { invoices: page.data, nextCursor: page.nextCursor };
      },
      {
        access: true,
        query: InvoiceListQuery,
        response: { 200: t.Object({ invoices: t.Array(Invoice), nextCursor: NextCursor }) },
        detail: { tags: TAGS, summary: "List invoices, newest first", description: INVOICE_DOCS.list },
      },
    )
    .get(
      "/invoices/:id",
      async ({ principal, params, request, set }) => {
        const invoice = await readInvoiceDetail(deps.sql, principal, params.id);
        Object.assign(set.headers, NO_STORE); // the links are bearer credentials for a day
        return {
          invoice,
          ...documentLinks(deps.config, linkOrigin(deps.config, request), { tenant: principal, invoiceId: invoice.id }, new Date(deps.clock.now())),
        };
      },
      {
        access: true,
        params: InvoiceParams,
        response: { 200: t.Object({ invoice: InvoiceDetail, ...InvoiceWithLinks }), 404: ErrorBody },
        detail: { tags: TAGS, summary: "Retrieve an invoice with its download links", description: INVOICE_DOCS.get },
      },
    )
    .get("/invoices/:id/credit-notes", async ({ principal, params }) => ({ creditNotes: await readCreditNotes(deps.sql, principal, params.id) }), {
      access: true,
      params: InvoiceParams,
      response: { 200: t.Object({ creditNotes: t.Array(CreditNote) }), 404: ErrorBody },
      detail: { tags: TAGS, summary: "List an invoice's credit notes", description: INVOICE_DOCS.creditNotes },
    });
}
