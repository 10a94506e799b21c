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

/** The sections, in the order an operator meets them; each is a folder of src/ui/pages. */
const NAV = [
  { href: "/dashboard/overview", label: "Overview" },
  { href: "/dashboard/customers", label: "Customers" },
  { href: "/dashboard/subscriptions", label: "Subscriptions" },
  { href: "/dashboard/invoices", label: "Invoices" },
  { href: "/dashboard/plans", label: "Plans" },
  { href: "/dashboard/features", label: "Features" },
  { href: "/dashboard/flags", label: "Flags" },
  { href: "/dashboard/coupons", label: "Coupons" },
  { href: "/dashboard/webhooks", label: "Webhooks" },
  { href: "/dashboard/agents", label: "Agents" },
  { href: "/dashboard/escrow", label: "Escrow" },
  { href: "/dashboard/api-keys", label: "API keys" },
  { href: "/dashboard/members", label: "Members" },
  { href: "/dashboard/audit-log", label: "Audit log" },
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
            {NAV.map((item) => (
              <li>
                <a href={item.href} aria-current={path.startsWith(item.href) ? "page" : undefined} safe>
                  {item.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
      </header>
      <main id="main">
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

export interface ChoiceProps {
  name: string;
  label: string;
  options: readonly string[];
  value?: string;
  error?: string;
}

export function Choice({ name, label, options, value, error }: ChoiceProps) {
  return (
    <div class={error ? "field invalid" : "field"}>
      <label for={name} safe>
        {label}
      </label>
      <select id={name} name={name} aria-invalid={error ? "true" : undefined} aria-describedby={error ? `${name}-error` : undefined}>
        {options.map((o) => (
          <option value={o} selected={o === value} safe>
            {o}
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
  /** the section's heading, e.g. "Keys in development" */
  title: string;
  /** what the page says when there are no rows */
  empty: string;
  /** the column headings */
  columns: readonly string[];
  /** the rows: `<tr>` elements, their values printed with `safe` */
  rows: JSX.Element[];
  /** what follows the table in the section (the next page's link) */
  children?: Children;
}

/** A page's list: its heading, and a scrollable table of the rows, or the empty text. */
export function ListTable({ title, empty, columns, rows, children }: ListTableProps) {
  return (
    <section aria-labelledby="list-title">
      <h2 id="list-title" safe>
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
