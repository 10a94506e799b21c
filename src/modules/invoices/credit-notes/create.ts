/**
 * Credit notes, inside the caller's transaction with the invoice locked first: a credit part lowers the
 * outstanding amount (past it, the company's credit balance takes the rest), a refund part records money
 * sent back (refunds/record.ts proves it on chain first). Numbered from their own gapless series. Limits
 * (BILLING.md, also CHECK constraints): refunds <= paid; credit parts + refunds <= total.
 */
import { apiError } from "../../../lib/errors";
import { newId } from "../../../lib/ids";
import { formatMicro } from "../../../lib/money";
import { recordAudit } from "../../audit/repo";
import { emitEvent } from "../../webhooks/emit";
import { addBalanceEntry, insertCreditNote } from "./repo";
import { lockOr404 } from "../lifecycle/transitions";
import type { LedgerContext } from "../lifecycle/context";
import { outstandingOf } from "../compute";
import { characters } from "../lifecycle/prepare";
import type { CreditNoteRow, InvoiceRow } from "../rows";
import { presentCreditNote } from "../present";
import { addInvoiceAmounts, nextNumber } from "../repo";
import { announceIfPaid } from "../payments/settle";

type Ctx = LedgerContext;

export interface CreditNoteInput {
  reason: string;
  /** lowers the outstanding amount (past it: the company's credit balance) */
  creditAmount: bigint;
  /** matches a refund already proven; set only by refunds/record.ts */
  refundAmount?: bigint;
  refundId?: string | null;
  memo?: string | null;
  /** default: one line, the reason, for the whole amount; given lines must add up to it */
  lines?: readonly { description: string; amount: bigint }[];
}

/** What a credit note may still take on an invoice: credit parts + refunds <= total; refunds <= paid. */
export function creditRoom(invoice: InvoiceRow): { creditable: bigint; refundable: bigint } {
  const creditable = invoice.total - invoice.amount_credited - invoice.amount_refunded;
  const paidLeft = invoice.amount_paid - invoice.amount_refunded;
  return { creditable, refundable: paidLeft < creditable ? paidLeft : creditable };
}

const MAX_CREDIT_NOTE_LINES = 50;
const badText = (text: string, max: number) => characters(text) < 1 || characters(text) > max || text.trim() === "";

/** Every problem with a credit note's own fields, by body field (the dashboard route's names). */
function creditNoteProblems(input: CreditNoteInput): Record<string, string> {
  const problems: Record<string, string> = {};
  if (badText(input.reason, 500)) problems["body.reason"] = "Expected 1 to 500 characters, not all whitespace";
  if (input.memo != null && characters(input.memo) > 2000) problems["body.memo"] = "Expected at most 2000 characters";
  const refund = input.refundAmount ?? 0n;
  if (input.creditAmount < 0n || refund < 0n || input.creditAmount + refund <= 0n) problems["body.amount"] = "Expected an amount greater than 0";
  const lines = input.lines ?? [];
  if (input.lines && (lines.length < 1 || lines.length > MAX_CREDIT_NOTE_LINES))
    problems["body.lineItems"] = `Expected 1 to ${MAX_CREDIT_NOTE_LINES} line items`;
  for (const [i, line] of lines.slice(0, MAX_CREDIT_NOTE_LINES).entries()) {
    if (badText(line.description, 500)) problems[`body.lineItems[${i}].description`] = "Expected 1 to 500 characters, not all whitespace";
    if (line.amount <= 0n) problems[`body.lineItems[${i}].amount`] = "Expected an amount greater than 0";
  }
  return problems;
}

/**
 * A credit note on an issued, overdue or paid invoice (numbered from its own series), with its effect on
 * the invoice's amounts in the same transaction. The invoice is locked first, so concurrent credit notes
 * and refunds queue and each sees what the previous ones took.
 */
export async function createCreditNote(
  c: Ctx,
  invoiceId: string,
  input: CreditNoteInput,
): Promise<{ creditNote: CreditNoteRow; invoice: InvoiceRow }> {
  const problems = creditNoteProblems(input);
  if (Object.keys(problems).length > 0) throw apiError("validation_failed", "Validation failed", problems);
  const invoice = await lockOr404(c, invoiceId);
  if (invoice.status === "DRAFT" || invoice.status === "VOID")
    throw apiError("invoice_not_creditable", `Invoice ${invoice.number} is ${invoice.status}; credit notes need an issued or paid invoice`);
  const refundAmount = input.refundAmount ?? 0n;
  const amount = input.creditAmount + refundAmount;
  const room = creditRoom(invoice);
  if (amount > room.creditable)
    throw apiError(
      "credit_exceeds_total",
      `At most ${formatMicro(room.creditable)} ${invoice.currency} can still be credited on invoice ${invoice.number}`,
    );
  if (refundAmount > room.refundable)
    throw apiError(
      "refund_exceeds_paid",
      `At most ${formatMicro(room.refundable)} ${invoice.currency} of invoice ${invoice.number} can still be refunded`,
    );
  const outstanding = outstandingOf(invoice.total, invoice.amount_paid, invoice.amount_credited);
  const toBalance = input.creditAmount > outstanding ? input.creditAmount - outstanding : 0n;
  if (toBalance > 0n && !invoice.company_id)
    throw apiError(
      "credit_exceeds_outstanding",
      `Invoice ${invoice.number} has ${formatMicro(outstanding)} ${invoice.currency} outstanding and no company to hold a credit balance`,
    );
  const lines = input.lines ?? [{ description: input.reason, amount }];
  if (lines.reduce((sum, l) => sum + l.amount, 0n) !== amount)
    throw apiError("validation_failed", "Validation failed", { "body.lineItems": `Expected line amounts adding up to ${formatMicro(amount)}` });

  const { sequence, number } = await nextNumber(c.tx, c.tenant, "credit_note");
  const id = newId("cn");
  const creditNote = await insertCreditNote(
    c.tx,
    c.tenant,
    {
      id,
      invoiceId,
      number,
      sequence,
      reason: input.reason,
      creditAmount: input.creditAmount,
      refundAmount,
      refundId: input.refundId ?? null,
      memo: input.memo ?? null,
      lines,
    },
    c.now,
  );
  const updated = await announceIfPaid(
    c,
    invoice,
    await addInvoiceAmounts(c.tx, c.tenant, { id: invoiceId, credited: input.creditAmount, refunded: refundAmount }, c.now),
  );
  if (toBalance > 0n)
    await addBalanceEntry(
      c.tx,
      c.tenant,
      { companyId: invoice.company_id!, currency: invoice.currency, amount: toBalance, reason: `Credit note ${number}`, invoiceId, creditNoteId: id },
      c.now,
    );
  await emitEvent(
    c,
    "credit_note.created",
    // From what was just written: reading the invoice's credit notes back would cost a read that grows with each one.
    {
      lazy: () => ({
        creditNote: presentCreditNote(
          creditNote,
          invoice.currency,
          lines.map((l, position) => ({ credit_note_id: id, position, ...l })),
        ),
      }),
    },
    { at: c.now },
  );
  await recordAudit(c.tx, {
    ...c.tenant,
    actor: c.actor,
    action: "credit_note.create",
    resourceType: "credit_note",
    resourceId: id,
    details: { invoiceId, number, creditAmount: formatMicro(input.creditAmount), refundAmount: formatMicro(refundAmount) },
  });
  return { creditNote, invoice: updated };
}
