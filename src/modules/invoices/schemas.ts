/**
 * The invoice resources as the API shows them: the spec's Invoice and Invoice line item (binding: field
 * names, decimal strings with six fractional digits, tax rates with four), and the record shapes the spec
 * leaves "not shown" (payments, credit notes, refunds, deliveries), decided here and documented in the
 * OpenAPI document through these schemas.
 */
import { t, type Static } from "elysia";
import type { InvoiceStatus } from "./rows";
import { PageQuery } from "../../http/pagination";
import { ResourceIdParams } from "../../http/resource-id";
import { LINKS_EXAMPLE } from "./examples";
import {
  CREDIT_NOTE_EXAMPLE,
  DELIVERY_EXAMPLE,
  INVOICE_DETAIL_EXAMPLE,
  INVOICE_EXAMPLE,
  LINE_EXAMPLES,
  PAYMENT_EXAMPLE,
  REFUND_EXAMPLE,
} from "./examples";

const Micro = (description: string) =>
  t.String({ pattern: "^-?\\d+\\.\\d{6}$", description: `${description} (decimal string, six fractional digits)` });
const DateTime = t.String({ format: "date-time" });

// A tuple of Literals, not INVOICE_STATUSES.map(t.Literal): Elysia types a route from its schema's static type, and
// a Union of a Literal[] array resolves to never there; nor UnionEnum, which Elysia fills in with its first value
// when an optional query parameter is absent. `statusesAgree` keeps the tuple and INVOICE_STATUSES the same set.
export const InvoiceStatusSchema = t.Union([t.Literal("DRAFT"), t.Literal("ISSUED"), t.Literal("PAID"), t.Literal("VOID"), t.Literal("OVERDUE")], {
  "x-expected": "Expected one of: DRAFT, ISSUED, PAID, VOID, OVERDUE (in capitals)",
  description: "DRAFT -> ISSUED -> PAID; ISSUED -> OVERDUE (due date passed) -> PAID; DRAFT/ISSUED/OVERDUE -> VOID while nothing is paid",
});
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
export const statusesAgree: Same<Static<typeof InvoiceStatusSchema>, InvoiceStatus> = true;

export const InvoiceLineItem = t.Object(
  {
    description: t.String(),
    quantity: t.Integer({ minimum: 1 }),
    unitAmount: Micro("Price of one unit; negative for a discount or credit line"),
    taxRate: t.String({ pattern: "^\\d+\\.\\d{4}$", description: 'Tax percentage, four fractional digits ("7.2500" is 7.25%)' }),
    lineSubtotal: Micro("quantity x unitAmount"),
    lineTax: Micro("round(lineSubtotal x taxRate / 100), half away from zero, once per line"),
    lineTotal: Micro("lineSubtotal + lineTax"),
    kind: t.Union([t.Literal("item"), t.Literal("discount"), t.Literal("proration"), t.Literal("credit")]),
  },
  { $id: "InvoiceLineItem", examples: [LINE_EXAMPLES[0]] },
);

export const Invoice = t.Object(
  {
    id: t.String({ description: "in_…" }),
    number: t.String({ description: "INV-000001 once issued (gapless per team and environment); DRAFT-<id> while a draft" }),
    status: InvoiceStatusSchema,
    currency: t.String({ description: "Asset code: the settlement token's symbol (USDC)" }),
    network: t.Union([t.String(), t.Null()], { description: "The chain the invoice settles on; null until set by its creator or first payment" }),
    companyId: t.Union([t.String(), t.Null()]),
    customerName: t.Union([t.String(), t.Null()]),
    customerEmail: t.Union([t.String(), t.Null()]),
    customerWallet: t.Union([t.String(), t.Null()]),
    description: t.Union([t.String(), t.Null()]),
    subtotal: Micro("Sum of lineSubtotal"),
    taxTotal: Micro("Sum of lineTax"),
    total: Micro("subtotal + taxTotal"),
    amountPaid: Micro("Paid on chain and applied to this invoice, gross of refunds"),
    amountCredited: Micro("Credit parts of credit notes"),
    amountRefunded: Micro("Refunds recorded against this invoice (never more than amountPaid)"),
    amountOutstanding: Micro("max(0, total - amountPaid - amountCredited); 0 once VOID"),
    paymentTermsDays: t.Integer({ description: "dueAt = issuedAt + paymentTermsDays" }),
    dueAt: t.Union([DateTime, t.Null()], { description: "null while a draft" }),
    issuedAt: t.Optional(t.String({ format: "date-time", description: "Absent while a draft (never null)" })),
    paidAt: t.Union([DateTime, t.Null()]),
    voidedAt: t.Union([DateTime, t.Null()]),
    planId: t.Union([t.String(), t.Null()]),
    metadata: t.Record(t.String(), t.Unknown()),
    lineItems: t.Array(InvoiceLineItem),
    createdAt: DateTime,
  },
  { $id: "Invoice", examples: [INVOICE_EXAMPLE] },
);

export const InvoicePayment = t.Object(
  {
    id: t.String({ description: "pay_…" }),
    network: t.String(),
    txHash: t.String(),
    currency: t.String(),
    tokenAmount: t.String({ description: "What the transfer moved, in the token's smallest units (integer string)" }),
    amountApplied: Micro("The part applied to this invoice"),
    amountExcess: Micro("The part past the invoice's outstanding amount, added to the customer's credit balance"),
    payer: t.String(),
    checkoutSessionId: t.Union([t.String(), t.Null()]),
    paidAt: DateTime,
  },
  { $id: "InvoicePayment", examples: [PAYMENT_EXAMPLE] },
);

export const CreditNote = t.Object(
  {
    id: t.String({ description: "cn_…" }),
    number: t.String({ description: "CN-000001: its own gapless series per team and environment" }),
    invoiceId: t.String(),
    currency: t.String(),
    reason: t.String(),
    amount: Micro("creditAmount + refundAmount"),
    creditAmount: Micro("Lowers the invoice's outstanding amount; past it, added to the customer's credit balance"),
    refundAmount: Micro("Matches a refund of money paid"),
    refundId: t.Union([t.String(), t.Null()]),
    memo: t.Union([t.String(), t.Null()]),
    lineItems: t.Array(t.Object({ description: t.String(), amount: Micro("Credited amount") })),
    createdAt: DateTime,
  },
  { $id: "CreditNote", examples: [CREDIT_NOTE_EXAMPLE] },
);

export const Refund = t.Object(
  {
    id: t.String({ description: "re_…" }),
    invoiceId: t.String(),
    creditNoteId: t.String({ description: "The credit note recorded with the refund" }),
    amount: Micro("Refunded, in the invoice currency"),
    currency: t.String(),
    tokenAmount: t.String({ description: "What the refund transaction moved, in token units (integer string)" }),
    reason: t.String(),
    network: t.String(),
    txHash: t.String(),
    senderWallet: t.String({ description: "The team's settlement wallet the refund was sent from" }),
    recipientWallet: t.String(),
    createdAt: DateTime,
  },
  { $id: "Refund", examples: [REFUND_EXAMPLE] },
);

export const InvoiceDelivery = t.Object(
  {
    id: t.String({ description: "idl_…" }),
    channel: t.Union([t.Literal("email"), t.Literal("webhook")], {
      description:
        "email: the invoice emailed over SMTP with its PDF attached (only when the service has SMTP_URL); webhook: the invoice's invoice.issued message to one of the team's webhook endpoints",
    }),
    destination: t.String({ description: "The email address, or the webhook endpoint id (wh_…)" }),
    trigger: t.Union([t.Literal("issue"), t.Literal("manual")], {
      description: "issue: queued when the invoice was issued; manual: POST /dashboard/invoices/{id}/send or `invoice send`",
    }),
    status: t.Union([t.Literal("PENDING"), t.Literal("SENT"), t.Literal("FAILED")], {
      description:
        "PENDING while attempts remain; SENT once the SMTP server accepted the email or the endpoint answered 2xx; FAILED after the last attempt, at once when the SMTP server refused the recipient or message for good (5xx), or when the endpoint was disabled",
    }),
    attempts: t.Integer({ description: "Attempts made so far (email: up to 12 over about 16 hours; webhook: the webhook delivery's)" }),
    lastError: t.Union([t.String(), t.Null()], { description: "Why the last attempt failed; null once sent" }),
    sentAt: t.Union([DateTime, t.Null()]),
    webhookDeliveryId: t.Union([t.String(), t.Null()], {
      description: "Webhook channel: the webhook delivery (dlv_…) carrying it, with every attempt in GET /dashboard/webhooks/deliveries/{id}",
    }),
    createdAt: DateTime,
  },
  { $id: "InvoiceDelivery", examples: [DELIVERY_EXAMPLE] },
);

/** GET /invoices/{id}: the invoice with everything recorded against it. */
export const InvoiceDetail = t.Composite(
  [
    Invoice,
    t.Object({
      payments: t.Array(InvoicePayment),
      creditNotes: t.Array(CreditNote),
      refunds: t.Array(Refund),
      deliveries: t.Array(InvoiceDelivery),
    }),
  ],
  { examples: [INVOICE_DETAIL_EXAMPLE] },
);

const ExplorerUrl = t.Union([t.String(), t.Null()], {
  description:
    "The transaction's page on the network's block explorer (the chain registry's `explorerTxUrl`); null when the registry names no explorer for the network",
});

/**
 * The dashboard's single-invoice answer: GET /invoices/{id}'s detail with each payment's and refund's
 * transaction linked to its network's explorer (`explorerUrl`), for the dashboard's page to link.
 */
export const DashboardInvoiceDetail = t.Composite([
  Invoice,
  t.Object({
    payments: t.Array(t.Composite([InvoicePayment, t.Object({ explorerUrl: ExplorerUrl })])),
    creditNotes: t.Array(CreditNote),
    refunds: t.Array(t.Composite([Refund, t.Object({ explorerUrl: ExplorerUrl })])),
    deliveries: t.Array(InvoiceDelivery),
  }),
]);

export type InvoiceView = Static<typeof Invoice>;
export type DashboardInvoiceDetailView = Static<typeof DashboardInvoiceDetail>;
export type InvoiceDetailView = Static<typeof InvoiceDetail>;
export type CreditNoteView = Static<typeof CreditNote>;
export type RefundView = Static<typeof Refund>;
export type InvoicePaymentView = Static<typeof InvoicePayment>;
export type InvoiceDeliveryView = Static<typeof InvoiceDelivery>;

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

/** GET /dashboard/invoices' query: GET /invoices' and the company the invoices are addressed to (as GET /dashboard/subscriptions takes it). */
export const DashboardInvoiceListQuery = t.Object({
  ...PageQuery,
  ...InvoiceFilterQuery,
  companyId: t.Optional(
    t.String({ minLength: 1, maxLength: 200, description: "Our comp_ id or your id for the company; an unknown one matches nothing" }),
  ),
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
