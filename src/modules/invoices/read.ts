/**
 * Reading invoices as the API shows them (the public routes, the dashboard's, the CLI). Lists: one page of
 * the tenant's invoices, newest first, filtered by status and by a case-insensitive substring of the number,
 * the customer's email or wallet, and (the dashboard's) by company, each with its lines (one statement for all lines of the page); each filter
 * combination has a statement of its own, so every plan uses its index (docs/invoices.md#invoices, bench/README.md).
 * One invoice: with everything recorded against it. Both in one read-only snapshot.
 */
import type { Sql } from "../../db/client";
import type { Db } from "../../db/queries";
import { filteredList, pageRequest, pageResponse } from "../../http/pagination";
import type { Tenant } from "../../lib/tenant";
import type { InvoiceRow } from "./rows";
import { apiError } from "../../lib/errors";
import { companyIdFilter } from "../customers/repo";
import { creditNotesOf, invoiceDetail, presentInvoice } from "./present";
import { findInvoice, linesOf, listInvoiceRows, type InvoiceFilters } from "./repo";
import type { CreditNoteView, InvoiceDetailView, InvoiceView } from "./schemas";

/**
 * One page as the lists answer it (`{data, count, nextCursor}`, src/http/pagination.ts), read in one
 * read-only snapshot (REPEATABLE READ): a draft edited meanwhile is shown with the totals and the lines of
 * one moment, never the totals of before and the lines of after. The cursor is bound to `list` and to the
 * filters: one taken under other filters is a 400, as it would page through another set.
 */
export function readInvoicePage(
  sql: Sql,
  t: Tenant,
  { secret, list }: { secret: string; list: string },
  query: { limit?: number; cursor?: string } & InvoiceFilters,
): Promise<{ data: InvoiceView[]; count: number; nextCursor: string | null }> {
  // companyId named only when given: the lists without it keep the names (and the cursors) they had.
  const company = query.companyId === undefined ? {} : { companyId: query.companyId };
  const bound = filteredList(list, { status: query.status, q: query.q, ...company });
  const page = pageRequest(secret, bound, t, query);
  return sql.begin(SNAPSHOT, async (tx) => {
    // `companyId` is our comp_ id or the integrator's; an unknown one matches nothing (as GET /dashboard/subscriptions).
    const companyId = (await companyIdFilter(tx, t, query.companyId)) ?? undefined;
    const rows = await listInvoiceRows(tx, t, page, { status: query.status, q: query.q, companyId });
    const shown = rows.slice(0, page.limit);
    const lines = await linesOf(
      tx,
      t,
      shown.map((r) => r.id),
    );
    return pageResponse(page, rows, (r) => presentInvoice(r, lines.get(r.id) ?? []));
  }) as Promise<{ data: InvoiceView[]; count: number; nextCursor: string | null }>;
}

/** BEGIN options of the API's reads: one consistent snapshot, and a promise to write nothing. */
export const SNAPSHOT = "isolation level repeatable read read only";

/** `read` of the tenant's invoice `id` in one snapshot; 404 `{error}` when the tenant has no such invoice. */
function readInvoice<T>(sql: Sql, t: Tenant, id: string, read: (tx: Db, invoice: InvoiceRow) => Promise<T>): Promise<T> {
  return sql.begin(SNAPSHOT, async (tx) => {
    const invoice = await findInvoice(tx, t, id);
    if (!invoice) throw apiError("not_found", `No invoice ${id}`);
    return read(tx, invoice);
  }) as Promise<T>;
}

/** The invoice with everything recorded against it (GET /invoices/{id}). */
export const readInvoiceDetail = (sql: Sql, t: Tenant, id: string): Promise<InvoiceDetailView> =>
  readInvoice(sql, t, id, (tx, invoice) => invoiceDetail(tx, t, invoice));

/** The invoice's credit notes, oldest first (GET /invoices/{id}/credit-notes). */
export const readCreditNotes = (sql: Sql, t: Tenant, id: string): Promise<CreditNoteView[]> =>
  readInvoice(sql, t, id, (tx, invoice) => creditNotesOf(tx, t, invoice));
