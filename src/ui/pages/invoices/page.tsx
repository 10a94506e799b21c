/** The invoices of the session's environment: filters (status, search, company), a page at a time, newest first. */
import { Field, FormError, ListTable, Select, Shell, when } from "../../layout";
import type { PageSession } from "../../session";
import { INVOICE_STATUSES, PATH, invoicePath, money, type InvoiceView } from "./records";

export interface InvoiceListProps {
  session: PageSession;
  invoices: InvoiceView[];
  nextCursor: string | null;
  filters: ListFilters;
  /** the API's refusal of the filters (a 400), by field, or as a whole */
  error?: { error: string | null; fields: Record<string, string> };
}

const ANY = "any";

/** The list's filters as the API takes them (GET /dashboard/invoices). */
export interface ListFilters {
  status?: string;
  q?: string;
  /** our comp_ id or the integrator's id for the company */
  companyId?: string;
}

/** The list's address with these filters (and the next page's cursor). */
export const listHref = (filters: ListFilters, cursor?: string) => {
  const query = listParams(filters);
  if (cursor) query.set("cursor", cursor);
  const text = query.toString();
  return text ? `${PATH}?${text}` : PATH;
};

/** The filters given, as query parameters (the page's and the API's alike). */
export function listParams(filters: ListFilters): URLSearchParams {
  const query = new URLSearchParams();
  if (filters.status) query.set("status", filters.status);
  if (filters.q) query.set("q", filters.q);
  if (filters.companyId) query.set("companyId", filters.companyId);
  return query;
}

const customerOf = (i: InvoiceView) => i.customerName ?? i.customerEmail ?? "—";

export function InvoiceListPage({ session, invoices, nextCursor, filters, error }: InvoiceListProps) {
  const canCreate = session.may("POST", PATH);
  const filtered = filters.status || filters.q || filters.companyId;
  const empty = filtered ? "No invoice matches these filters." : "No invoices yet.";
  return (
    <Shell title="Invoices" session={session} path={PATH}>
      {canCreate ? (
        <p>
          <a href={`${PATH}/new`} class="button-link">
            New draft invoice
          </a>
        </p>
      ) : (
        ""
      )}
      <section aria-labelledby="filter-title">
        <h2 id="filter-title">Find invoices</h2>
        <FormError message={error?.error ?? null} />
        <form method="get" action={PATH} class="filters">
          <Select name="status" label="Status" options={[ANY, ...INVOICE_STATUSES]} value={filters.status ?? ANY} error={error?.fields.status} />
          <Field
            name="q"
            label="Search"
            value={filters.q}
            error={error?.fields.q}
            hint="Part of the invoice number, the customer's email or wallet."
          />
          <Field
            name="companyId"
            label="Company"
            value={filters.companyId}
            error={error?.fields.companyId}
            hint="Our comp_ id or your id for the company."
          />
          <button type="submit">Search</button>
        </form>
      </section>
      <ListTable
        title={`Invoices in ${session.environment}`}
        empty={empty}
        columns={["Number", "Status", "Customer", "Company", "Total", "Outstanding", "Issued", "Due"]}
        rows={invoices.map((i) => (
          <tr>
            <td>
              <a href={invoicePath(i.id)} safe>
                {i.number}
              </a>
            </td>
            <td>
              <span class={`status status-${i.status.toLowerCase()}`} safe>
                {i.status}
              </span>
            </td>
            <td safe>{customerOf(i)}</td>
            <td safe>{i.companyId ?? "—"}</td>
            <td class="amount" safe>
              {money(i.total, i.currency)}
            </td>
            <td class="amount" safe>
              {money(i.amountOutstanding, i.currency)}
            </td>
            <td class="date" safe>
              {when(i.issuedAt ?? null)}
            </td>
            <td class="date" safe>
              {when(i.dueAt)}
            </td>
          </tr>
        ))}
      >
        {nextCursor ? (
          <p>
            <a href={listHref(filters, nextCursor)}>Next page</a>
          </p>
        ) : (
          ""
        )}
      </ListTable>
    </Shell>
  );
}

/** The status filter as the API takes it: "any" is no filter. */
export const statusFilter = (value: unknown) => (typeof value === "string" && value !== "" && value !== ANY ? value : undefined);
