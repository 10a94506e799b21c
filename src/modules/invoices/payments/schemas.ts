/** The body and answers of POST /dashboard/invoices/{id}/payments (and `invoice pay`), with their examples. */
import { t } from "elysia";
import { InvoiceDetail, InvoicePayment } from "../schemas";

export const PaymentProofSubmit = t.Object(
  {
    txHash: t.String({
      minLength: 1,
      maxLength: 200,
      description: "The transfer's transaction: 0x + 64 hex digits (EVM), 64 hex digits (Stellar) or a base58 signature (Solana)",
    }),
    network: t.Optional(
      t.String({
        minLength: 1,
        maxLength: 64,
        description:
          "A chain registry id. Default: the invoice's network; required for an invoice that has none (and, when it has one, only that one)",
      }),
    ),
  },
  { $id: "PaymentProofSubmit", examples: [{ txHash: "0x5c504ed432cb51138bcf09aa5e8a410dd4a1e204ef84bfed1be16dfba1b22060", network: "base" }] },
);

const PAYMENT_EXAMPLE = {
  id: "pay_01JH5Q8T0M3V9X2Y4Z6A8B0C1P",
  network: "base",
  txHash: "0x5c504ed432cb51138bcf09aa5e8a410dd4a1e204ef84bfed1be16dfba1b22060",
  currency: "USDC",
  tokenAmount: "120000000",
  amountApplied: "120.000000",
  amountExcess: "0.000000",
  payer: "0x8ba1f109551bD432803012645Ac136ddd64DBA72",
  checkoutSessionId: null,
  paidAt: "2026-02-01T10:12:00.000Z",
};

const invoiceExample = (paid: boolean) => ({
  id: "in_01JH5Q8T0M3V9X2Y4Z6A8B0C1N",
  number: "INV-000042",
  status: paid ? "PAID" : "ISSUED",
  currency: "USDC",
  network: "base",
  companyId: "comp_01JH5Q8T0M3V9X2Y4Z6A8B0C1D",
  customerName: "Globex",
  customerEmail: "ap@globex.example",
  customerWallet: "0x8ba1f109551bD432803012645Ac136ddd64DBA72",
  description: null,
  subtotal: "120.000000",
  taxTotal: "0.000000",
  total: "120.000000",
  amountPaid: paid ? "120.000000" : "0.000000",
  amountCredited: "0.000000",
  amountRefunded: "0.000000",
  amountOutstanding: paid ? "0.000000" : "120.000000",
  paymentTermsDays: 30,
  dueAt: "2026-02-14T09:30:00.000Z",
  issuedAt: "2026-01-15T09:30:00.000Z",
  paidAt: paid ? PAYMENT_EXAMPLE.paidAt : null,
  voidedAt: null,
  planId: null,
  metadata: {},
  lineItems: [
    {
      description: "Consulting, January",
      quantity: 1,
      unitAmount: "120.000000",
      taxRate: "0.0000",
      lineSubtotal: "120.000000",
      lineTax: "0.000000",
      lineTotal: "120.000000",
      kind: "item",
    },
  ],
  createdAt: "2026-01-15T09:30:00.000Z",
  payments: paid ? [PAYMENT_EXAMPLE] : [],
  creditNotes: [],
  refunds: [],
  deliveries: [],
});

export const ProofRecorded = t.Object(
  { invoice: InvoiceDetail, payment: InvoicePayment },
  { examples: [{ invoice: invoiceExample(true), payment: PAYMENT_EXAMPLE }] },
);

export const ProofPending = t.Object(
  {
    invoice: InvoiceDetail,
    verification: t.Object({
      reason: t.String({ description: "not_found, not_final, rpc_unavailable, timeout or worker_crashed" }),
      detail: t.String(),
    }),
  },
  { examples: [{ invoice: invoiceExample(false), verification: { reason: "not_final", detail: "3 of 10 confirmations" } }] },
);
