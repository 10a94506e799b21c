/**
 * The page shell: who is signed in, the team and the environment always in view (production in red, named),
 * the switch between environments, navigation and sign-out. Every value printed goes through `safe`.
 */
import type { Children } from "@kitajs/html";
import type { PageSession } from "./session";

export interface ShellProps {
  title: string;
  session: PageSession;
  /** this page's path, to come back to after switching environment */
  path: string;
  children?: Children;
}

/**
 * The sections, in the order an operator meets them; each is a folder of src/ui/pages. `reads` is the API route
 * the section's page reads: a member whose roles the API would refuse there is not offered the section.
 */
const NAV: { href: string; label: string; reads?: string }[] = [
  { href: "/dashboard/overview", label: "Overview" },
  { href: "/dashboard/customers", label: "Customers", reads: "/companies" },
  { href: "/dashboard/subscriptions", label: "Subscriptions", reads: "/dashboard/subscriptions" },
  { href: "/dashboard/invoices", label: "Invoices", reads: "/dashboard/invoices" },
  { href: "/dashboard/plans", label: "Plans", reads: "/dashboard/plans" },
  { href: "/dashboard/features", label: "Features", reads: "/dashboard/features" },
  { href: "/dashboard/flags", label: "Flags", reads: "/dashboard/plans" },
  { href: "/dashboard/coupons", label: "Coupons", reads: "/dashboard/coupons" },
  { href: "/dashboard/webhooks", label: "Webhooks", reads: "/dashboard/webhooks/endpoints" },
  { href: "/dashboard/agents", label: "Agents", reads: "/dashboard/agent-dispatch" },
  { href: "/dashboard/escrow", label: "Escrow", reads: "/escrow/reservations" },
  { href: "/dashboard/api-keys", label: "API keys", reads: "/dashboard/api-keys" },
  { href: "/dashboard/members", label: "Members", reads: "/dashboard/members" },
  { href: "/dashboard/audit-log", label: "Audit log", reads: "/audit-log" },
];

export function Document({ title, production, children }: { title: string; production?: boolean; children?: Children }) {
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title safe>{title}</title>
        <link rel="stylesheet" href="/dashboard/assets/dashboard.css" />
        <script src="/dashboard/assets/dashboard.js" defer></script>
      </head>
      <body class={production ? "env-production" : "env-development"}>{children}</body>
    </html>
  );
}

export function Shell({ title, session, path, children }: ShellProps) {
  const production = session.environment === "production";
  return (
    <Document title={`${title} · ${session.team.name} · ${production ? "Production" : "Development"}`} production={production}>
      <a class="skip-link" href="#main">
        Skip to content
      </a>
      <header class="shell">
        {production ? (
          <p class="env-banner" role="status">
            Production: changes here affect live customers and real money.
          </p>
        ) : (
          <p class="env-banner">Development: test data only.</p>
        )}
        <div class="bar">
          <a class="brand" href="/dashboard">
            Billing
          </a>
          <p class="team">
            Team <strong safe>{session.team.name}</strong>{" "}
            <a href="/dashboard/teams" class="small">
              Switch team
            </a>
          </p>
          <form method="post" action="/dashboard/environment" class="env-switch">
            <input type="hidden" name="csrf" value={session.csrfToken} />
            <input type="hidden" name="back" value={path} />
            <label for="environment">Environment</label>
            <select id="environment" name="environment">
              <option value="development" selected={!production}>
                Development
              </option>
              <option value="production" selected={production}>
                Production
              </option>
            </select>
            <button type="submit">Switch</button>
          </form>
          <form method="post" action="/dashboard/sign-out" class="sign-out">
            <input type="hidden" name="csrf" value={session.csrfToken} />
            <span class="who" safe>
              {session.operator.email}
            </span>
            <button type="submit">Sign out</button>
          </form>
        </div>
        <nav aria-label="Sections">
          <ul>
            {NAV.filter((item) => !item.reads || session.may("GET", item.reads)).map((item) => (
              <li>
                <a href={item.href} aria-current={path.startsWith(item.href) ? "page" : undefined} safe>
                  {item.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
      </header>
      <main id="main" tabindex="-1">
        <h1>
          <span safe>{title}</span> <span class={`env-tag env-tag-${session.environment}`}>{production ? "Production" : "Development"}</span>
        </h1>
        {children}
      </main>
    </Document>
  );
}

/**
 * A create form's Idempotency-Key, new with each rendering: the same form posted twice (a double click, a
 * reload that posts again) creates once, and the second answer is the first one replayed by the API.
 */
export function OnceKey() {
  return <input type="hidden" name="idempotencyKey" value={crypto.randomUUID()} />;
}

/** What a write just did, announced (the page's own words, never text taken from the address). */
export function Notice({ text }: { text: string | null | undefined }) {
  if (!text) return "";
  return (
    <p class="notice" role="status" safe>
      {text}
    </p>
  );
}

/** The API's refusal of a whole form (a 403, a 409), announced to screen readers. */
export function FormError({ message }: { message: string | null }) {
  if (!message) return "";
  return (
    <p class="form-error" role="alert" safe>
      {message}
    </p>
  );
}

export interface FieldProps {
  name: string;
  label: string;
  value?: string;
  error?: string;
  type?: string;
  hint?: string;
  required?: boolean;
  autocomplete?: string;
}

/** A labelled input with the API's message for it (`details`) right below, tied to it for screen readers. */
export function Field({ name, label, value, error, type = "text", hint, required, autocomplete }: FieldProps) {
  const described = [hint ? `${name}-hint` : "", error ? `${name}-error` : ""].filter(Boolean).join(" ");
  return (
    <div class={error ? "field invalid" : "field"}>
      <label for={name} safe>
        {label}
      </label>
      {hint ? (
        <p class="hint" id={`${name}-hint`} safe>
          {hint}
        </p>
      ) : (
        ""
      )}
      <input
        id={name}
        name={name}
        type={type}
        value={value ?? ""}
        required={required}
        autocomplete={autocomplete}
        aria-invalid={error ? "true" : undefined}
        aria-describedby={described || undefined}
      />
      {error ? (
        <p class="field-error" id={`${name}-error`} safe>
          {error}
        </p>
      ) : (
        ""
      )}
    </div>
  );
}

/** An option whose label reads differently from its value; a plain string is its own label. */
export interface Option {
  value: string;
  label: string;
}

interface SelectProps {
  name: string;
  label: string;
  options: readonly (string | Option)[];
  value?: string;
  error?: string;
  hint?: string;
  multiple?: boolean;
  values?: readonly string[];
}

/** A labelled select with the API's message for it right below, tied to it for screen readers. */
export function Select({ name, label, options, value, error, hint, multiple, values }: SelectProps) {
  const described = [hint ? `${name}-hint` : "", error ? `${name}-error` : ""].filter(Boolean).join(" ");
  const chosen = (v: string) => (multiple ? (values ?? []).includes(v) : v === value);
  const labelled = options.map((o) => (typeof o === "string" ? { value: o, label: o } : o));
  return (
    <div class={error ? "field invalid" : "field"}>
      <label for={name} safe>
        {label}
      </label>
      {hint ? (
        <p class="hint" id={`${name}-hint`} safe>
          {hint}
        </p>
      ) : (
        ""
      )}
      <select
        id={name}
        name={name}
        multiple={multiple ? "multiple" : undefined}
        aria-invalid={error ? "true" : undefined}
        aria-describedby={described || undefined}
      >
        {labelled.map((o) => (
          <option value={o.value} selected={chosen(o.value)} safe>
            {o.label}
          </option>
        ))}
      </select>
      {error ? (
        <p class="field-error" id={`${name}-error`} safe>
          {error}
        </p>
      ) : (
        ""
      )}
    </div>
  );
}

/**
 * A value shown in this one answer only (a new key, an invitation link, a webhook secret), with a copy button
 * (src/ui/assets/dashboard.js, `data-copy`) and a live region that says whether the copy worked.
 */
export function ShownOnce({ id, value }: { id: string; value: string }) {
  return (
    <p class="secret">
      <code id={id} safe>
        {value}
      </code>{" "}
      <button type="button" data-copy={id}>
        Copy
      </button>
      <span class="copied" aria-live="polite"></span>
    </p>
  );
}

/**
 * An address from data (a webhook endpoint's URL, an explorer link) fit for an `href`: only `https:` (and
 * `http:` for a local address, as a development endpoint is). The library escapes attributes but lets a
 * `javascript:` URL through; anything else prints as text, not as a link (undefined).
 */
export function linkable(url: string | null | undefined): string | undefined {
  if (!url) return undefined;
  try {
    const parsed = new URL(url);
    if (parsed.protocol === "https:") return parsed.href;
    if (parsed.protocol === "http:" && ["localhost", "127.0.0.1", "[::1]"].includes(parsed.hostname)) return parsed.href;
  } catch {}
  return undefined;
}

/** A date-time from the API as people read it (UTC, to the minute), or a dash. */
export const when = (iso: string | null): string => (iso ? `${iso.slice(0, 16).replace("T", " ")} UTC` : "—");

interface ListTableProps {
  /** the heading's id, unique on the page (a page with several lists names each) */
  id?: string;
  /** the section's heading, e.g. "Keys in development" */
  title: string;
  /** what the page says when there are no rows */
  empty: string;
  /** the column headings */
  columns: readonly string[];
  /** the rows: `<tr>` elements, their values printed with `safe` */
  rows: JSX.Element[];
  /** what comes before the table (a filter, a note) */
  lead?: Children;
  /** what follows the table in the section (the next page's link) */
  children?: Children;
}

/** A scrollable table of the rows under their column headings, or the empty text. */
export function Table({ columns, rows, empty }: { columns: readonly string[]; rows: JSX.Element[]; empty: string }) {
  if (rows.length === 0) return <p safe>{empty}</p>;
  return (
    // Focusable: a table wider than the screen scrolls inside its frame, and a keyboard must reach it.
    <div class="table-wrap" tabindex="0">
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
  );
}

/** A page's list: its heading, what leads into it, the table (or the empty text), and what follows. */
export function ListTable({ id = "list-title", title, empty, columns, rows, lead, children }: ListTableProps) {
  return (
    <section aria-labelledby={id}>
      <h2 id={id} safe>
        {title}
      </h2>
      {lead ?? ""}
      <Table columns={columns} rows={rows} empty={empty} />
      {children}
    </section>
  );
}

/** 0x1234…abcd: a hash short enough for a table cell (the whole hash is the title). */
const shortHash = (hash: string): string => (hash.length > 14 ? `${hash.slice(0, 8)}…${hash.slice(-6)}` : hash);

/**
 * A transaction hash: a link to the explorer page the API named (through `linkable`: https only), else the hash as
 * text; a dash for none. `full` prints the whole hash (a record's page), otherwise it is shortened (a table cell).
 */
export function TxHash({ hash, url, full }: { hash: string | null; url?: string | null; full?: boolean }) {
  if (!hash) return "—";
  const href = linkable(url);
  const shown = full ? hash : shortHash(hash);
  const code = (
    <code title={hash} class={full ? "hash" : "tx-hash"} safe>
      {shown}
    </code>
  );
  if (!href) return code;
  return (
    <a href={href} class="tx-link" rel="noopener noreferrer">
      {code}
      <span class="visually-hidden"> (on the block explorer)</span>
    </a>
  );
}

/** The link to the next page of a list: this path with the list's cursor parameter. */
export function NextPage({
  path,
  param = "cursor",
  cursor,
  label = "Next page",
}: {
  path: string;
  param?: string;
  cursor: string | null;
  label?: string;
}) {
  if (!cursor) return "";
  return (
    <p>
      <a href={`${path}?${param}=${encodeURIComponent(cursor)}`} safe>
        {label}
      </a>
    </p>
  );
}
