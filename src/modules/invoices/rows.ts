/**
 * Invoice rows (as the database returns them: int8 as bigint micro-units, numeric as exact text) and the
 * states an invoice moves through (BILLING.md "Invoices"):
 *   DRAFT -> ISSUED -> PAID;  ISSUED -> OVERDUE (due date passed) -> PAID;
 *   DRAFT | ISSUED | OVERDUE -> VOID while nothing is paid (after a payment, a credit note corrects it).
 */
import type { Environment } from "../../lib/tenant";

export const INVOICE_STATUSES = ["DRAFT", "ISSUED", "PAID", "VOID", "OVERDUE"] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];

export const LINE_KINDS = ["item", "discount", "proration", "credit"] as const;
export type LineKind = (typeof LINE_KINDS)[number];

export type InvoiceSource = "manual" | "checkout_session" | "subscription";

export interface InvoiceRow {
  id: string;
  team_id: string;
  environment: Environment;
  number: string;
  sequence: bigint | null;
  status: InvoiceStatus;
  currency: string;
  network: string | null;
  company_id: string | null;
  customer_name: string | null;
  customer_email: string | null;
  customer_wallet: string | null;
  plan_id: string | null;
  description: string | null;
  metadata: Record<string, unknown>;
  source: InvoiceSource;
  source_id: string | null;
  payment_terms_days: number;
  subtotal: bigint;
  tax_total: bigint;
  total: bigint;
  amount_paid: bigint;
  amount_credited: bigint;
  amount_refunded: bigint;
  amount_outstanding: bigint;
  issued_at: Date | null;
  due_at: Date | null;
  paid_at: Date | null;
  voided_at: Date | null;
  created_at: Date;
  updated_at: Date;
  seq: bigint;
}

export interface InvoiceLineRow {
  invoice_id: string;
  position: number;
  kind: LineKind;
  description: string;
  quantity: bigint;
  unit_amount: bigint;
  /** 1/10000 of a percent (7.25% = 72500) */
  tax_rate: number;
  line_subtotal: bigint;
  line_tax: bigint;
  line_total: bigint;
  plan_id: string | null;
  period_start: Date | null;
  period_end: Date | null;
}

/** A payment applied to an invoice (a row of `payments` with invoice_id set). */
export interface InvoicePaymentRow {
  id: string;
  invoice_id: string;
  checkout_session_id: string | null;
  network: string;
  tx_hash: string;
  transfer_index: number;
  /** token units, exact text */
  amount: string;
  token_symbol: string;
  payer: string;
  block_number: string;
  applied_micro: bigint;
  excess_micro: bigint;
  paid_at: Date | null;
  created_at: Date;
}

export interface CreditNoteRow {
  id: string;
  team_id: string;
  environment: Environment;
  invoice_id: string;
  number: string;
  sequence: bigint;
  reason: string;
  credit_amount: bigint;
  refund_amount: bigint;
  total: bigint;
  refund_id: string | null;
  memo: string | null;
  created_at: Date;
}

export interface CreditNoteLineRow {
  credit_note_id: string;
  position: number;
  description: string;
  amount: bigint;
}

export interface RefundRow {
  id: string;
  team_id: string;
  environment: Environment;
  invoice_id: string;
  amount: bigint;
  token_symbol: string;
  /** token units, exact text */
  token_amount: string;
  network: string;
  tx_hash: string;
  sender_wallet: string;
  recipient_wallet: string;
  reason: string;
  block_number: string;
  created_at: Date;
  /** the credit note recorded with it (joined) */
  credit_note_id: string;
}

export type DeliveryChannel = "email" | "webhook";
export type DeliveryStatus = "PENDING" | "SENT" | "FAILED";

export interface InvoiceDeliveryRow {
  id: string;
  team_id: string;
  environment: Environment;
  invoice_id: string;
  channel: DeliveryChannel;
  destination: string;
  trigger: "issue" | "manual";
  status: DeliveryStatus;
  attempts: number;
  last_error: string | null;
  sent_at: Date | null;
  created_at: Date;
  updated_at: Date;
  /** webhook channel: the message (the invoice's invoice.issued) and the webhook delivery carrying it (migration 00023) */
  webhook_message_id: string | null;
  webhook_delivery_id: string | null;
}

export interface SettlementWalletRow {
  team_id: string;
  environment: Environment;
  network: string;
  wallet: string;
  tokens: string[];
  created_at: Date;
  updated_at: Date;
}

export interface InvoiceSettingsRow {
  seller_name: string | null;
  seller_address: string | null;
  seller_tax_id: string | null;
  seller_email: string | null;
  payment_terms_days: number;
  footer: string | null;
  email_on_issue: boolean;
}
