/**
 * `invoice list | show | create | update | issue | void | credit-note`: the dashboard's invoice routes for an
 * operator, over the same service functions (src/modules/invoices/lifecycle/manage.ts) and the same body schemas, so
 * a bad value is the same 400 `{error, details}` (exit 2) naming the same field (`body.lineItems[0].unitAmount`).
 * Changes are audited with actor `operator`.
 */
import type { Static } from "elysia";
import { checkBody, checkSchema } from "../http/schema-errors";
import { MAX_PAGE_SIZE } from "../http/pagination";
import { INVOICE_STATUSES } from "../modules/invoices/rows";
import { CreditNoteWrite, InvoiceWrite } from "../modules/invoices/lifecycle/input";
import { documentLinks } from "../modules/invoices/documents/links";
import { linkOrigin } from "../http/public-origin";
import { readInvoiceDetail, readInvoicePage } from "../modules/invoices/read";
import { InvoiceListQuery } from "../modules/invoices/schemas";
import { createDraft, creditInvoice, issueDraftNow, replaceDraft, voidUnpaid, type ManageDeps } from "../modules/invoices/lifecycle/manage";
import { OPERATOR } from "../modules/teams/roles";
import { ENVIRONMENT_OPTION, TEAM_OPTION, oneOf, tenant, wholeNumber } from "./args";
import { command, UsageError, type Args, type Context } from "./command";
import { ListPage } from "./output";

const ID_OPTION = { id: { value: "<invoice id>", help: "in_…", required: true } };
const DRAFT_OPTIONS = {
  currency: { value: "<symbol>", help: "A settlement token this environment settles (USDC)", required: true },
  lines: {
    value: "<json>",
    help: 'Line items as a JSON array: [{"description":"Seats","quantity":3,"unitAmount":"12.50","taxRate":"7.25"}] (default [])',
  },
  company: { value: "<id>", help: "Our comp_ id or yours; fills the customer fields left out" },
  "customer-name": { value: "<text>", help: "" },
  "customer-email": { value: "<email>", help: "" },
  "customer-wallet": { value: "<address>", help: "" },
  network: { value: "<network>", help: "A network this environment settles the currency on" },
  plan: { value: "<plan id>", help: "" },
  description: { value: "<text>", help: "" },
  metadata: { value: "<json>", help: "A JSON object (at most 50 keys)" },
  "payment-terms-days": { value: "<0-365>", help: "Default: the team's invoice settings, else 30" },
  issue: { value: "true|false", help: "true: issue at once (default false: a draft)" },
};

function json(name: string, text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw new UsageError(`--${name} must be JSON`);
  }
}

const draftBody = (a: Args): InvoiceWrite =>
  checkBody<InvoiceWrite>(InvoiceWrite, {
    currency: a.currency,
    lineItems: json("lines", a.lines) ?? [],
    companyId: a.company,
    customerName: a["customer-name"],
    customerEmail: a["customer-email"],
    customerWallet: a["customer-wallet"],
    network: a.network,
    planId: a.plan,
    description: a.description,
    metadata: json("metadata", a.metadata),
    paymentTermsDays: a["payment-terms-days"] === undefined ? undefined : Number(wholeNumber("payment-terms-days", a["payment-terms-days"])),
    issue: a.issue === undefined ? undefined : oneOf("issue", a.issue, ["true", "false"]) === "true",
  });

const manage = (ctx: Context): ManageDeps => ({
  sql: ctx.sql,
  chains: ctx.config.chains,
  now: () => new Date(ctx.now),
  // Issued here, emailed by the service's (or `npm run worker`'s) job runner, when the deployment has SMTP.
  emailEnabled: ctx.config.smtpUrl !== undefined,
});
/** The detail with its links, as the dashboard answers; the links point at PUBLIC_BASE_URL, else this machine's API. */
const withLinks = <D extends { id: string }>(ctx: Context, t: ReturnType<typeof tenant>, detail: D) => ({
  ...detail,
  ...documentLinks(ctx.config, linkOrigin(ctx.config, { url: ctx.baseUrl }), { tenant: t, invoiceId: detail.id }, new Date(ctx.now)),
});

export const invoiceCommands = [
  command({
    name: "invoice list",
    summary: "One page of invoices, newest first, filtered and paged as GET /invoices",
    options: {
      ...TEAM_OPTION,
      ...ENVIRONMENT_OPTION,
      status: { value: INVOICE_STATUSES.join("|"), help: "" },
      q: { value: "<text>", help: "A substring of the number, customer email or wallet, any case" },
      limit: { value: `<1-${MAX_PAGE_SIZE}>`, help: "Default 50" },
      cursor: { value: "<cursor>", help: "nextCursor of the previous page (with the same --status and --q)" },
    },
    // The API's query schema: a bad value is the 400 the route answers, naming query.status, query.q, …
    parse: (a) => ({
      tenant: tenant(a),
      query: checkSchema<Static<typeof InvoiceListQuery>>(
        InvoiceListQuery,
        { status: a.status, q: a.q, limit: a.limit === undefined ? undefined : Number(wholeNumber("limit", a.limit)), cursor: a.cursor },
        "query",
      ),
    }),
    // The API's read, under the public list's name: a cursor of GET /invoices pages on here, and back.
    run: async (ctx, i) =>
      new ListPage(await readInvoicePage(ctx.sql, i.tenant, { secret: ctx.config.tokenSigningSecret, list: "invoices" }, i.query)),
  }),
  command({
    name: "invoice show",
    summary: "An invoice with its lines, payments, credit notes, refunds, deliveries and download links",
    options: { ...TEAM_OPTION, ...ENVIRONMENT_OPTION, ...ID_OPTION },
    parse: (a) => ({ tenant: tenant(a), id: a.id! }),
    run: async (ctx, i) => withLinks(ctx, i.tenant, await readInvoiceDetail(ctx.sql, i.tenant, i.id)),
  }),
  command({
    name: "invoice create",
    summary: "Create a draft invoice (--issue true: issue it at once)",
    options: { ...TEAM_OPTION, ...ENVIRONMENT_OPTION, ...DRAFT_OPTIONS },
    parse: (a) => ({ tenant: tenant(a), body: draftBody(a) }),
    run: async (ctx, i) => withLinks(ctx, i.tenant, await createDraft(manage(ctx), i.tenant, OPERATOR, i.body)),
  }),
  command({
    name: "invoice update",
    summary: "Replace a draft's fields and lines (omitted options are cleared, as PUT does)",
    options: { ...TEAM_OPTION, ...ENVIRONMENT_OPTION, ...ID_OPTION, ...DRAFT_OPTIONS },
    parse: (a) => ({ tenant: tenant(a), id: a.id!, body: draftBody(a) }),
    run: async (ctx, i) => withLinks(ctx, i.tenant, await replaceDraft(manage(ctx), { tenant: i.tenant, actor: OPERATOR }, i.id, i.body)),
  }),
  command({
    name: "invoice issue",
    summary: "Issue a draft: the next number of the series, the issue and due dates",
    options: { ...TEAM_OPTION, ...ENVIRONMENT_OPTION, ...ID_OPTION },
    parse: (a) => ({ tenant: tenant(a), id: a.id! }),
    run: async (ctx, i) => withLinks(ctx, i.tenant, await issueDraftNow(manage(ctx), i.tenant, OPERATOR, i.id)),
  }),
  command({
    name: "invoice void",
    summary: "Void an invoice nothing was paid on",
    options: { ...TEAM_OPTION, ...ENVIRONMENT_OPTION, ...ID_OPTION },
    parse: (a) => ({ tenant: tenant(a), id: a.id! }),
    run: async (ctx, i) => withLinks(ctx, i.tenant, await voidUnpaid(manage(ctx), i.tenant, OPERATOR, i.id)),
  }),
  command({
    name: "invoice credit-note",
    summary: "Credit an issued, overdue or paid invoice (its own numbered credit note)",
    options: {
      ...TEAM_OPTION,
      ...ENVIRONMENT_OPTION,
      ...ID_OPTION,
      reason: { value: "<text>", help: "1 to 500 characters", required: true },
      amount: { value: "<decimal>", help: "Greater than 0, at most 6 fractional digits", required: true },
      memo: { value: "<text>", help: "" },
      lines: { value: "<json>", help: 'Lines adding up to --amount: [{"description":"Outage","amount":"5"}] (default: one line, the reason)' },
    },
    parse: (a) => ({
      tenant: tenant(a),
      id: a.id!,
      body: checkBody<CreditNoteWrite>(CreditNoteWrite, { reason: a.reason, amount: a.amount, memo: a.memo, lineItems: json("lines", a.lines) }),
    }),
    run: (ctx, i) => creditInvoice(manage(ctx), { tenant: i.tenant, actor: OPERATOR }, i.id, i.body),
  }),
];
