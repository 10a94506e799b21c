/**
 * The spec's invoice reads: GET /invoices (rule 8: sk_/rk_ with invoices.read; pk_ 403), GET /invoices/{id}
 * with its signed download links, GET /invoices/{id}/credit-notes. Decisions (credentials of the detail and
 * credit-note routes, `nextCursor` beside `invoices`) in docs/invoices.md#invoices and docs.ts.
 */
import { Elysia, t } from "elysia";
import { ErrorBody } from "../../http/error-schemas";
import { authPlugin, type AuthDeps } from "../../http/auth";

import type { Sql } from "../../db/client";
import type { Clock } from "../../lib/clock";
import { INVOICE_DOCS } from "./docs";

import { documentLinks, NO_STORE, type LinkConfig } from "./documents/links";
import { linkOrigin } from "../../http/public-origin";
import { readCreditNotes, readInvoiceDetail, readInvoicePage } from "./read";
import { CreditNote, Invoice, InvoiceDetail, InvoiceListQuery, InvoiceParams, InvoiceWithLinks } from "./schemas";

/** What these routes need; the service's wiring (src/app-deps.ts) provides it. */
export type InvoiceRouteDeps = AuthDeps & { sql: Sql; clock: Clock; config: LinkConfig & { tokenSigningSecret: string } };

const NextCursor = t.Union([t.String(), t.Null()], {
  description: "Added to the spec's body: pass as `cursor` for the next page; null on the last page",
});

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
