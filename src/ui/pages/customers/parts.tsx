/** What the customers and flags pages share: facts, links to a company's pages. */

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
