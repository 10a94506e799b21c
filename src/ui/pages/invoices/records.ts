/** The invoice records as the pages read them: the API's fields the pages print (OpenAPI: Invoice, InvoiceDetail). */

export const INVOICE_STATUSES = ["DRAFT", "ISSUED", "OVERDUE", "PAID", "VOID"] as const;
export const PATH = "/dashboard/invoices";

export interface InvoiceLineView {
  description: string;
  quantity: number;
  unitAmount: string;
  taxRate: string;
  lineSubtotal: string;
  lineTax: string;
  lineTotal: string;
  kind: string;
}

export interface InvoiceView {
  id: string;
  number: string;
  status: string;
  currency: string;
  network: string | null;
  companyId: string | null;
  customerName: string | null;
  customerEmail: string | null;
  customerWallet: string | null;
  description: string | null;
  subtotal: string;
  taxTotal: string;
  total: string;
  amountPaid: string;
  amountCredited: string;
  amountRefunded: string;
  amountOutstanding: string;
  paymentTermsDays: number;
  dueAt: string | null;
  issuedAt?: string;
  paidAt: string | null;
  voidedAt: string | null;
  lineItems: InvoiceLineView[];
  createdAt: string;
}

export interface PaymentView {
  id: string;
  network: string;
  txHash: string;
  currency: string;
  amountApplied: string;
  amountExcess: string;
  payer: string;
  paidAt: string;
  explorerUrl: string | null;
}

export interface CreditNoteView {
  id: string;
  number: string;
  reason: string;
  amount: string;
  creditAmount: string;
  refundAmount: string;
  memo: string | null;
  createdAt: string;
}

export interface RefundView {
  id: string;
  amount: string;
  currency: string;
  reason: string;
  network: string;
  txHash: string;
  recipientWallet: string;
  createdAt: string;
  explorerUrl: string | null;
}

export interface DeliveryView {
  id: string;
  channel: string;
  destination: string;
  trigger: string;
  status: string;
  attempts: number;
  lastError: string | null;
  sentAt: string | null;
  createdAt: string;
}

export interface InvoiceDetailView extends InvoiceView {
  payments: PaymentView[];
  creditNotes: CreditNoteView[];
  refunds: RefundView[];
  deliveries: DeliveryView[];
}

/** A form as it was posted, with the API's refusal: messages by field, any other above the form. */
export interface FormState {
  values: Record<string, string>;
  error: string | null;
  fields: Record<string, string>;
}

/** An invoice's page. */
export const invoicePath = (id: string, rest = "") => `${PATH}/${encodeURIComponent(id)}${rest}`;

/** An amount as the API put it, with its currency. */
export const money = (amount: string, currency: string) => `${amount} ${currency}`;
