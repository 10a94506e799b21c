/** Typed access to credit notes (and their lines) and the customer credit balance ledger (sql/queries/credit_note_*, customer_balance_*). */
import { queries, run, runOne, type Db } from "../../../db/queries";
import { newId } from "../../../lib/ids";
import type { Tenant } from "../../../lib/tenant";
import type { CreditNoteLineRow, CreditNoteRow } from "../rows";

const Q = queries([
  "credit_note_insert",
  "credit_note_lines_insert_many",
  "credit_note_list_by_invoice",
  "credit_note_lines_list",
  "customer_balance_entry_insert",
  "customer_balance_find",
]);

export interface CreditNoteInsert {
  id: string;
  invoiceId: string;
  number: string;
  sequence: bigint;
  reason: string;
  creditAmount: bigint;
  refundAmount: bigint;
  refundId: string | null;
  memo: string | null;
  lines: readonly { description: string; amount: bigint }[];
}

export async function insertCreditNote(db: Db, t: Tenant, c: CreditNoteInsert, now: Date): Promise<CreditNoteRow> {
  const row = (await runOne<CreditNoteRow>(db, Q.credit_note_insert, [
    c.id,
    t.teamId,
    t.environment,
    c.invoiceId,
    c.number,
    c.sequence,
    c.reason,
    c.creditAmount,
    c.refundAmount,
    c.refundId,
    c.memo,
    now,
  ]))!;
  await run(db, Q.credit_note_lines_insert_many, [
    t.teamId,
    t.environment,
    c.id,
    c.lines.map((l) => l.description),
    c.lines.map((l) => l.amount.toString()),
  ]);
  return row;
}

export const listCreditNotes = (db: Db, t: Tenant, invoiceId: string) =>
  run<CreditNoteRow>(db, Q.credit_note_list_by_invoice, [t.teamId, t.environment, invoiceId]);

export async function creditNoteLinesOf(db: Db, t: Tenant, ids: readonly string[]): Promise<Map<string, CreditNoteLineRow[]>> {
  const byNote = new Map<string, CreditNoteLineRow[]>(ids.map((id) => [id, []]));
  if (ids.length === 0) return byNote;
  for (const line of await run<CreditNoteLineRow>(db, Q.credit_note_lines_list, [t.teamId, t.environment, ids]))
    byNote.get(line.credit_note_id)?.push(line);
  return byNote;
}

export interface BalanceEntry {
  companyId: string;
  currency: string;
  /** micro-units, positive: owed to the customer */
  amount: bigint;
  reason: string;
  invoiceId?: string | null;
  creditNoteId?: string | null;
  paymentId?: string | null;
}

export const addBalanceEntry = (db: Db, t: Tenant, e: BalanceEntry, now: Date) =>
  run(db, Q.customer_balance_entry_insert, [
    newId("cbe"),
    t.teamId,
    t.environment,
    e.companyId,
    e.currency,
    e.amount,
    e.reason,
    e.invoiceId ?? null,
    e.creditNoteId ?? null,
    e.paymentId ?? null,
    now,
  ]);

export const customerBalance = async (db: Db, t: Tenant, companyId: string, currency: string): Promise<bigint> =>
  (await runOne<{ balance: bigint }>(db, Q.customer_balance_find, [t.teamId, t.environment, companyId, currency]))!.balance;
