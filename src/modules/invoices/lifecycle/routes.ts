/**
 * The dashboard's invoice routes (dashboard sessions; billing:read to read, billing:write to change), in the
 * dashboard's `{data}` envelope: list and read with the public routes' filters and links, make and replace
 * drafts, issue, void, credit. Each write is one transaction of the service functions, audited with the
 * signed-in operator as actor (CSRF is checked centrally, src/auth/resolve.ts).
 */
import { Elysia, t } from "elysia";
import { ErrorBody, ValidationErrorBody, CodedErrorBody } from "../../../http/error-schemas";
import { authPlugin } from "../../../http/auth";
import { data } from "../../../http/envelope";
import { Page } from "../../../http/pagination";
import { requestState } from "../../../http/request-context";
import type { Principal } from "../../../auth/kinds";
import type { ChainRegistry } from "../../../lib/networks";
import { actorOf } from "../../audit/repo";
import { DASHBOARD_INVOICE_DOCS as DOCS } from "../docs";
import { DASHBOARD_INVOICE_DETAIL_EXAMPLE, LINKS_EXAMPLE } from "../examples";
import { CreditNoteWrite, InvoiceWrite } from "./input";
import { documentLinks, NO_STORE } from "../documents/links";
import { linkOrigin } from "../../../http/public-origin";
import { readInvoiceDetail, readInvoicePage } from "../read";
import { createDraft, creditInvoice, issueDraftNow, replaceDraft, voidUnpaid, type ManageDeps } from "./manage";
import type { InvoiceRouteDeps } from "../routes";
import { CreditNote, DashboardInvoiceDetail, DashboardInvoiceListQuery, Invoice, InvoiceParams, InvoiceWithLinks } from "../schemas";
import { withExplorerLinks } from "../present";
import type { InvoiceDetailView } from "../schemas";

export type DashboardInvoiceDeps = InvoiceRouteDeps & { config: { chains: ChainRegistry; smtpUrl: string | undefined } };

/**
 * Every single-invoice answer: the detail of GET /invoices/{id}, each payment's and refund's transaction with its
 * explorer page (`explorerUrl`), and its links beside its fields.
 */
const DashboardInvoice = t.Composite([DashboardInvoiceDetail, t.Object(InvoiceWithLinks)], {
  examples: [{ ...DASHBOARD_INVOICE_DETAIL_EXAMPLE, ...LINKS_EXAMPLE }],
});
const TAGS = ["Dashboard: invoices"];
const Conflict = CodedErrorBody;

export function dashboardInvoiceRoutes(deps: DashboardInvoiceDeps) {
  const secret = deps.config.tokenSigningSecret;
  const manage: ManageDeps = {
    sql: deps.sql,
    chains: deps.config.chains,
    now: () => new Date(deps.clock.now()),
    emailEnabled: deps.config.smtpUrl !== undefined,
  };
  const actor = (principal: Principal, request: Request) => actorOf(principal, requestState(request).requestId);
  // Every single-invoice answer carries the links, bearer credentials for a day: never cached (documents/links.ts).
  const withLinks = (invoice: InvoiceDetailView, principal: Principal, request: Request, set: { headers: Record<string, unknown> }) => {
    Object.assign(set.headers, NO_STORE);
    return {
      data: {
        ...withExplorerLinks(invoice, deps.config.chains),
        ...documentLinks(deps.config, linkOrigin(deps.config, request), { tenant: principal, invoiceId: invoice.id }, manage.now()),
      },
    };
  };
  const one = { params: InvoiceParams };
  return new Elysia()
    .use(authPlugin(deps))
    .get("/dashboard/invoices", ({ principal, query }) => readInvoicePage(deps.sql, principal, { secret, list: "dashboard-invoices" }, query), {
      access: true,
      query: DashboardInvoiceListQuery,
      response: Page(Invoice),
      detail: {
        tags: TAGS,
        summary: "List invoices, newest first",
        description:
          "As GET /invoices (filters `status` and `q`, newest first), in the dashboard's `{data, count, nextCursor}`, with one more filter: `companyId`, the company the invoices are addressed to (our comp_ id or yours; an unknown one matches nothing), combinable with `status` and `q`. A cursor is bound to the filters it was taken under: another filter with it is a 400.",
      },
    })
    .post(
      "/dashboard/invoices",
      async ({ principal, body, request, set }) => {
        const invoice = await createDraft(manage, principal, actor(principal, request), body);
        set.status = 201;
        return withLinks(invoice, principal, request, set);
      },
      {
        access: true,
        body: InvoiceWrite,
        response: { 201: data(DashboardInvoice), 400: ValidationErrorBody, 409: Conflict },
        detail: { tags: TAGS, summary: "Create a draft invoice (or issue it at once)", description: DOCS.write },
      },
    )
    .get(
      "/dashboard/invoices/:id",
      async ({ principal, params, request, set }) => withLinks(await readInvoiceDetail(deps.sql, principal, params.id), principal, request, set),
      {
        ...one,
        access: true,
        response: { 200: data(DashboardInvoice), 404: ErrorBody },
        detail: { tags: TAGS, summary: "An invoice with its download links", description: DOCS.get },
      },
    )
    .put(
      "/dashboard/invoices/:id",
      async ({ principal, params, body, request, set }) =>
        withLinks(await replaceDraft(manage, { tenant: principal, actor: actor(principal, request) }, params.id, body), principal, request, set),
      {
        ...one,
        access: true,
        body: InvoiceWrite,
        response: { 200: data(DashboardInvoice), 400: ValidationErrorBody, 404: ErrorBody, 409: Conflict },
        detail: { tags: TAGS, summary: "Replace a draft", description: `${DOCS.replace}\n\n${DOCS.write}` },
      },
    )
    .post(
      "/dashboard/invoices/:id/issue",
      async ({ principal, params, request, set }) =>
        withLinks(await issueDraftNow(manage, principal, actor(principal, request), params.id), principal, request, set),
      {
        ...one,
        access: true,
        response: { 200: data(DashboardInvoice), 404: ErrorBody, 409: Conflict },
        detail: { tags: TAGS, summary: "Issue a draft: number, issue date, due date", description: DOCS.issue },
      },
    )
    .post(
      "/dashboard/invoices/:id/void",
      async ({ principal, params, request, set }) =>
        withLinks(await voidUnpaid(manage, principal, actor(principal, request), params.id), principal, request, set),
      {
        ...one,
        access: true,
        response: { 200: data(DashboardInvoice), 404: ErrorBody, 409: Conflict },
        detail: { tags: TAGS, summary: "Void an invoice nothing was paid on", description: DOCS.void },
      },
    )
    .post(
      "/dashboard/invoices/:id/credit-notes",
      async ({ principal, params, body, request, set }) => {
        const creditNote = await creditInvoice(manage, { tenant: principal, actor: actor(principal, request) }, params.id, body);
        set.status = 201;
        return { data: creditNote };
      },
      {
        ...one,
        access: true,
        body: CreditNoteWrite,
        response: { 201: data(CreditNote), 400: ValidationErrorBody, 404: ErrorBody, 409: Conflict },
        detail: { tags: TAGS, summary: "Credit an invoice", description: DOCS.creditNote },
      },
    );
}
