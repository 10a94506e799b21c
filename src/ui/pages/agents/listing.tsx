/**
 * What the agents and escrow pages share: a list with a heading of its own id (a page here holds several lists),
 * a transaction hash linked to the network's explorer when the API gives a link, and the "next page" link.
 */
import type { Children } from "@kitajs/html";
import { linkable } from "../../layout";

interface ListingProps {
  /** the heading's id, unique on the page */
  id: string;
  title: string;
  empty: string;
  columns: readonly string[];
  rows: JSX.Element[];
  children?: Children;
}

export function Listing({ id, title, empty, columns, rows, children }: ListingProps) {
  return (
    <section aria-labelledby={id}>
      <h2 id={id} safe>
        {title}
      </h2>
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
      {children}
    </section>
  );
}

/** 0x1234…abcd: a hash short enough for a table cell (the whole hash is the link's title). */
const shortHash = (hash: string): string => (hash.length > 14 ? `${hash.slice(0, 8)}…${hash.slice(-6)}` : hash);

/** A transaction hash: a link to the explorer page the API named (https only), else the hash as text; a dash for none. */
export function TxHash({ hash, url }: { hash: string | null; url?: string | null }) {
  if (!hash) return "—";
  const href = linkable(url);
  const short = shortHash(hash);
  if (!href)
    return (
      <code title={hash} class="tx-hash" safe>
        {short}
      </code>
    );
  return (
    <a href={href} title={hash} class="tx-link" rel="noopener noreferrer">
      <code class="tx-hash" safe>
        {short}
      </code>
    </a>
  );
}

/** The link to the next page of a list: this path with the list's cursor parameter. */
export function NextPage({ path, param, cursor, label = "Next page" }: { path: string; param: string; cursor: string | null; label?: string }) {
  if (!cursor) return "";
  return (
    <p>
      <a href={`${path}?${param}=${encodeURIComponent(cursor)}`} safe>
        {label}
      </a>
    </p>
  );
}

/** A done=... notice after a write, as the page that shows its result says it. */
export function Done({ message }: { message: string | null }) {
  if (!message) return "";
  return (
    <p class="notice" role="status" safe>
      {message}
    </p>
  );
}
