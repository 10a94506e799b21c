/** What the customers and flags pages share: a titled table (its own heading id, several to a page), facts, the notice. */
import type { Children } from "@kitajs/html";

interface TableProps {
  /** the heading's id, unique on the page (the section is labelled by it) */
  id: string;
  title: string;
  empty: string;
  columns: readonly string[];
  rows: JSX.Element[];
  /** what comes before the table (a filter, a note) */
  lead?: Children;
  /** what follows the table (the next page's link) */
  children?: Children;
}

/** A section with its heading and a scrollable table of the rows, or the empty text. */
export function Table({ id, title, empty, columns, rows, lead, children }: TableProps) {
  return (
    <section aria-labelledby={id}>
      <h2 id={id} safe>
        {title}
      </h2>
      {lead ?? ""}
      {rows.length === 0 ? (
        <p safe>{empty}</p>
      ) : (
        <div class="table-wrap">
          <table>
            <thead>
              <tr>
                {columns.map((column) => (
                  <th scope="col" safe>
                    {column}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>{rows}</tbody>
          </table>
        </div>
      )}
      {children ?? ""}
    </section>
  );
}

/** Label and value pairs, each value printed as text. */
export function Facts({ items }: { items: [string, string][] }) {
  return (
    <dl class="facts">
      {items.map(([label, value]) => (
        <div>
          <dt safe>{label}</dt>
          <dd safe>{value || "—"}</dd>
        </div>
      ))}
    </dl>
  );
}

/** What a write just did, announced. */
export function Notice({ text }: { text: string | null | undefined }) {
  if (!text) return "";
  return (
    <p class="notice" role="status" safe>
      {text}
    </p>
  );
}

/** A value of a trait (any JSON) as text. */
export const traitText = (value: unknown): string => (typeof value === "string" ? value : JSON.stringify(value));

/** Where a company's page is. */
export const companyHref = (id: string) => `/dashboard/customers/${encodeURIComponent(id)}`;
export const companyFlagsHref = (id: string) => `/dashboard/flags/companies/${encodeURIComponent(id)}`;

/** A list page's next link: the same filter, the API's cursor. */
export function nextHref(path: string, params: Record<string, string | undefined>, cursor: string): string {
  const query = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v) query.set(k, v);
  query.set("cursor", cursor);
  return `${path}?${query}`;
}
