/**
 * Reading invoices for the lists (GET /invoices and the dashboard's list): one page of the tenant's
 * invoices, newest first, filtered by status and by a case-insensitive substring of the number, the
 * customer's email or wallet, each with its lines (one statement for all lines of the page). Each filter
 * combination has a statement of its own, so every plan uses its index (README "Invoices", bench/README.md).
 */
import type { Sql } from "../../db/client";
import { queries, run, runPlannedPerCall, type Db } from "../../db/queries";
import { pageRequest, pageResponse } from "../../http/pagination";
import type { Tenant } from "../../lib/tenant";
import type { InvoiceStatus, InvoiceRow } from "./model";
import { presentInvoice } from "./present";
import { linesOf } from "./repo";
import type { InvoiceView } from "./schemas";

const Q = queries(["invoice_list_page", "invoice_list_page_by_status", "invoice_search_page"]);

export interface InvoiceFilters {
  status?: InvoiceStatus;
  /** a substring of the number, customer email or customer wallet, any case */
  q?: string;
}

/** `text` as a LIKE pattern that matches it literally anywhere (its \ % _ escaped). */
export const containsPattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Up to `fetch` invoices below `beforeSeq` (null: from the newest), newest first. */
export function listInvoiceRows(db: Db, t: Tenant, beforeSeq: bigint | null, fetch: number, f: InvoiceFilters): Promise<InvoiceRow[]> {
  const page = [t.teamId, t.environment, beforeSeq, fetch] as const;
  // Planned per call: the pattern decides between the trigram index and the newest-first scan.
  if (f.q !== undefined) return runPlannedPerCall<InvoiceRow>(db, Q.invoice_search_page, [...page, containsPattern(f.q), f.status ?? null]);
  if (f.status !== undefined) return run<InvoiceRow>(db, Q.invoice_list_page_by_status, [...page, f.status]);
  return run<InvoiceRow>(db, Q.invoice_list_page, page);
}

/**
 * One page as the lists answer it (`{data, count, nextCursor}`, src/http/pagination.ts), read in one
 * read-only snapshot (REPEATABLE READ): a draft edited meanwhile is shown with the totals and the lines of
 * one moment, never the totals of before and the lines of after. `list` binds the cursor to its list.
 */
export function readInvoicePage(
  sql: Sql,
  t: Tenant,
  secret: string,
  list: string,
  query: { limit?: number; cursor?: string } & InvoiceFilters,
): Promise<{ data: InvoiceView[]; count: number; nextCursor: string | null }> {
  const page = pageRequest(secret, list, t, query);
  return sql.begin(SNAPSHOT, async (tx) => {
    const rows = await listInvoiceRows(tx, t, page.beforeSeq, page.fetch, query);
    const shown = rows.slice(0, page.limit);
    const lines = await linesOf(
      tx,
      t,
      shown.map((r) => r.id),
    );
    return pageResponse(secret, list, t, page, rows, (r) => presentInvoice(r, lines.get(r.id) ?? []));
  }) as Promise<{ data: InvoiceView[]; count: number; nextCursor: string | null }>;
}

/** BEGIN options of the API's reads: one consistent snapshot, and a promise to write nothing. */
export const SNAPSHOT = "isolation level repeatable read read only";
