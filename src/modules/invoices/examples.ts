/**
 * The invoice resources' OpenAPI examples (schemas.ts), written once and consistent with the rules they
 * document: each line's tax is round(subtotal x rate / 100), the totals are the sums of the lines, and
 * amountOutstanding = total - amountPaid - amountCredited.
 */
const CREATED = "2026-03-01T10:00:00.000Z";

export const LINE_EXAMPLES = [
  {
    description: "Seats",
    quantity: 3,
    unitAmount: "12.500000",
    taxRate: "7.2500",
    lineSubtotal: "37.500000",
    lineTax: "2.718750",
    lineTotal: "40.218750",
    kind: "item",
  },
  {
    description: "Launch discount",
    quantity: 1,
    unitAmount: "-5.000000",
    taxRate: "7.2500",
    lineSubtotal: "-5.000000",
    lineTax: "-0.362500",
    lineTotal: "-5.362500",
    kind: "discount",
  },
] as const;

export const INVOICE_EXAMPLE = {
  id: "in_01JH5Q8T0M3V9X2Y4Z6A8B0C1D",
  number: "INV-000042",
  status: "ISSUED",
  currency: "USDC",
  network: "base",
  companyId: "comp_01JH5Q8T0M3V9X2Y4Z6A8B0C1E",
  customerName: "Acme Inc.",
  customerEmail: "billing@acme.example",
  customerWallet: "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
  description: null,
  subtotal: "32.500000",
  taxTotal: "2.356250",
  total: "34.856250",
  amountPaid: "20.000000",
  amountCredited: "0.000000",
  amountRefunded: "0.000000",
  amountOutstanding: "14.856250",
  paymentTermsDays: 14,
  dueAt: "2026-03-15T10:00:00.000Z",
  issuedAt: CREATED,
  paidAt: null,
  voidedAt: null,
  planId: null,
  metadata: { orderId: "PO-1138" },
  lineItems: LINE_EXAMPLES,
  createdAt: CREATED,
};

export const PAYMENT_EXAMPLE = {
  id: "pay_01JH5Q8T0M3V9X2Y4Z6A8B0C1F",
  network: "base",
  txHash: "0x8f1c2d3e4b5a69788796a5b4c3d2e1f00112233445566778899aabbccddeeff0",
  currency: "USDC",
  tokenAmount: "20000000",
  amountApplied: "20.000000",
  amountExcess: "0.000000",
  payer: "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
  checkoutSessionId: null,
  paidAt: "2026-03-02T08:00:00.000Z",
};

export const CREDIT_NOTE_EXAMPLE = {
  id: "cn_01JH5Q8T0M3V9X2Y4Z6A8B0C1G",
  number: "CN-000007",
  invoiceId: INVOICE_EXAMPLE.id,
  currency: "USDC",
  reason: "Service outage on March 3",
  amount: "10.000000",
  creditAmount: "10.000000",
  refundAmount: "0.000000",
  refundId: null,
  memo: null,
  lineItems: [{ description: "Service outage on March 3", amount: "10.000000" }],
  createdAt: "2026-03-04T09:00:00.000Z",
};

export const REFUND_EXAMPLE = {
  id: "re_01JH5Q8T0M3V9X2Y4Z6A8B0C1H",
  invoiceId: INVOICE_EXAMPLE.id,
  creditNoteId: "cn_01JH5Q8T0M3V9X2Y4Z6A8B0C1J",
  amount: "5.000000",
  currency: "USDC",
  tokenAmount: "5000000",
  reason: "Duplicate seat",
  network: "base",
  txHash: "0x0ffeeddccbbaa99887766554433221100f1e2d3c4b5a69788796a5b4c3d2e1f8",
  senderWallet: "0x71C7656EC7ab88b098defB751B7401B5f6d8976F",
  recipientWallet: "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
  createdAt: "2026-03-05T09:00:00.000Z",
};

export const DELIVERY_EXAMPLE = {
  id: "idl_01JH5Q8T0M3V9X2Y4Z6A8B0C1K",
  channel: "email",
  destination: "billing@acme.example",
  trigger: "issue",
  status: "SENT",
  attempts: 1,
  lastError: null,
  sentAt: CREATED,
  webhookDeliveryId: null,
  createdAt: CREATED,
};

/** GET /invoices/{id}'s record: the invoice above with what was recorded against it (a detail, so no refund here). */
export const INVOICE_DETAIL_EXAMPLE = {
  ...INVOICE_EXAMPLE,
  payments: [PAYMENT_EXAMPLE],
  creditNotes: [],
  refunds: [],
  deliveries: [DELIVERY_EXAMPLE],
};

/** Download links as GET /invoices/{id} hands them out (the token is a signed value; this one is a placeholder). */
export const LINKS_EXAMPLE = {
  downloadUrl: "https://billing.example.com/api/v1/invoice-documents/EXAMPLE-signed-token-pdf",
  iso20022DownloadUrl: "https://billing.example.com/api/v1/invoice-documents/EXAMPLE-signed-token-pain013",
};

/** The dashboard's detail: payments and refunds with their explorer pages. */
export const DASHBOARD_INVOICE_DETAIL_EXAMPLE = {
  ...INVOICE_DETAIL_EXAMPLE,
  payments: [{ ...PAYMENT_EXAMPLE, explorerUrl: `https://basescan.org/tx/${PAYMENT_EXAMPLE.txHash}` }],
};
