/**
 * Recording a refund once its transaction is proven on chain (the proof itself is the caller's: the route
 * verifies through the chain workers before calling this, never holding a lock across a chain call).
 * The refund and its credit note are written in one transaction under the invoice's lock, so concurrent
 * refunds queue and the sum of refunds never passes what was paid; a transaction proves one refund, once,
 * and never a refund that was a payment (src/modules/transaction-claims/repo.ts: its lock is this transaction's first).
 */
import { apiError } from "../../../lib/errors";
import { newId } from "../../../lib/ids";
import { formatMicro } from "../../../lib/money";
import { lockTransaction } from "../../transaction-claims/repo";
import { recordAudit } from "../../audit/repo";
import { emitEvent } from "../../webhooks/emit";
import { lockOr404 } from "../lifecycle/transitions";
import type { LedgerContext } from "../lifecycle/context";
import type { CreditNoteRow, InvoiceRow, RefundRow } from "../rows";
import { presentRefund } from "../present";
import { createCreditNote, creditRoom } from "../credit-notes/create";
import { insertRefund } from "./repo";

export interface ProvenRefund {
  /** micro-units of the invoice currency */
  amount: bigint;
  reason: string;
  network: string;
  txHash: string;
  senderWallet: string;
  recipientWallet: string;
  tokenSymbol: string;
  /** what the transaction moved, token units */
  tokenAmount: bigint;
  blockNumber: bigint;
}

export const replayed = () => apiError("refund_replayed", "This transaction already proved a refund or a payment");

/** The refund limit of an invoice, checked before a chain call and again under the lock. */
export function checkRefundable(invoice: InvoiceRow, amount: bigint): void {
  if (invoice.status === "DRAFT" || invoice.status === "VOID" || invoice.amount_paid === 0n)
    throw apiError("invoice_not_refundable", `Invoice ${invoice.number} has no payment to refund`);
  const { refundable } = creditRoom(invoice);
  if (amount > refundable)
    throw apiError(
      "refund_exceeds_paid",
      `At most ${formatMicro(refundable)} ${invoice.currency} of invoice ${invoice.number} can still be refunded`,
    );
}

export async function recordRefund(
  c: LedgerContext,
  invoiceId: string,
  proof: ProvenRefund,
): Promise<{ refund: RefundRow; creditNote: CreditNoteRow; invoice: InvoiceRow }> {
  // First, before the invoice's lock: a payment of this hash, recorded at the same time, waits or is seen.
  const used = await lockTransaction(c.tx, proof.network, proof.txHash);
  const invoice = await lockOr404(c, invoiceId);
  checkRefundable(invoice, proof.amount);
  if (used !== null) throw replayed();
  const id = newId("re");
  const inserted = await insertRefund(c.tx, c.tenant, { ...proof, id, invoiceId }, c.now);
  if (!inserted) throw replayed();
  const { creditNote, invoice: updated } = await createCreditNote(c, invoiceId, {
    reason: proof.reason,
    creditAmount: 0n,
    refundAmount: proof.amount,
    refundId: id,
    // A line holds 500 characters, as a reason does: the prefix takes its room from the end of a long reason.
    lines: [{ description: [...`Refund: ${proof.reason}`].slice(0, 500).join(""), amount: proof.amount }],
  });
  const refund = { ...inserted, credit_note_id: creditNote.id };
  await emitEvent(c, "refund.created", { refund: presentRefund(refund, invoice.currency) }, { at: c.now });
  await recordAudit(c.tx, {
    ...c.tenant,
    actor: c.actor,
    action: "refund.create",
    resourceType: "refund",
    resourceId: id,
    details: { invoiceId, amount: formatMicro(proof.amount), network: proof.network, txHash: proof.txHash },
  });
  return { refund, creditNote, invoice: updated };
}
