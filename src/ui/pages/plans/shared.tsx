/**
 * What the catalog pages (plans, coupons, credit packs, features) share: the confirmation page before an archive
 * or a removal, a status notice, a table with its own heading id (several on one page), a select whose options
 * have labels, a checkbox, and the API's `details` renamed to a form's fields (docs/dashboard.md#how-a-page-works).
 */
import type { Children } from "@kitajs/html";
import { fieldErrors, type ApiAnswer } from "../../api";
import type { Form } from "../../kit";
import { FormError, Shell } from "../../layout";
import type { PageSession } from "../../session";

/** A refused form as the page shows it again: what was typed, the error above it, the messages beside fields. */
export interface FormState {
  values: Record<string, string>;
  error: string | null;
  fields: Record<string, string>;
}

/**
 * The refusal of a form for the page: the API's `details` beside the fields they name (`rename` maps the API's
 * name, `prices[0].amount`, `limit`, to the form's, when they differ), its error above the form when it names
 * no field, and the values as typed.
 */
export function refusal(answer: ApiAnswer, form: Form, rename: Record<string, string> = {}, summary = false): FormState {
  const { form: error, fields } = fieldErrors(answer);
  const renamed: Record<string, string> = {};
  for (const [path, message] of Object.entries(fields)) {
    // The API's name as it is, without an index (`prices[0]`), or its first part (`onchainPlanIds.sepolia`).
    const name = rename[path] ?? rename[path.replace(/\[\d+\]$/, "")] ?? rename[path.split(/[.[]/)[0] ?? path] ?? path;
    renamed[name] = renamed[name] ? `${renamed[name]}; ${message}` : message;
  }
  // The whole refusal's words too, when they say more than "Validation failed" (an entitlement's "Quota needs
  // limit and period").
  const said = typeof answer.body?.error === "string" ? answer.body.error : null;
  const headline = error ?? (summary && said && said !== "Validation failed" ? said : null);
  const values: Record<string, string> = {};
  for (const [k, v] of Object.entries(form)) if (typeof v === "string" && k !== "csrf" && k !== "idempotencyKey") values[k] = v;
  return { values, error: headline, fields: renamed };
}

/** A form's field as an integer when it is one; otherwise as typed, for the API to refuse with its message. */
export function integer(value: string | undefined): number | string | undefined {
  if (value === undefined || value.trim() === "") return undefined;
  return /^\d{1,15}$/.test(value.trim()) ? Number(value.trim()) : value;
}

/** A form's multi-select as a list (one value arrives as a string, several as an array). */
export function many(value: unknown): string[] {
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === "string" && v !== "");
  return typeof value === "string" && value !== "" ? [value] : [];
}

/** The confirmation of what just happened, from the page's own words (never text from the address). */
export function Notice({ notices, done }: { notices: Record<string, string>; done?: string }) {
  const text = done ? notices[done] : undefined;
  if (!text) return "";
  return (
    <p class="notice" role="status" safe>
      {text}
    </p>
  );
}

interface TableProps {
  id: string;
  title: string;
  empty: string;
  columns: readonly string[];
  rows: JSX.Element[];
  children?: Children;
}

/** A section with a table, labelled by its own heading (a page may hold several). */
export function Table({ id, title, empty, columns, rows, children }: TableProps) {
  return (
    <section aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} safe>
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

export interface Option {
  value: string;
  label: string;
}

interface SelectProps {
  name: string;
  label: string;
  options: readonly Option[];
  value?: string;
  error?: string;
  hint?: string;
  multiple?: boolean;
  values?: readonly string[];
}

/** A labelled select whose options read differently from their values, with the API's message below it. */
export function Select({ name, label, options, value, error, hint, multiple, values }: SelectProps) {
  const described = [hint ? `${name}-hint` : "", error ? `${name}-error` : ""].filter(Boolean).join(" ");
  const chosen = (v: string) => (multiple ? (values ?? []).includes(v) : v === value);
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
        {options.map((o) => (
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

/** A labelled checkbox (posted as "on" when ticked), with the API's message below it. */
export function Check({ name, label, checked, error }: { name: string; label: string; checked: boolean; error?: string }) {
  return (
    <div class={error ? "field check invalid" : "field check"}>
      <input
        type="checkbox"
        id={name}
        name={name}
        checked={checked}
        aria-invalid={error ? "true" : undefined}
        aria-describedby={error ? `${name}-error` : undefined}
      />{" "}
      <label for={name} safe>
        {label}
      </label>
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

interface ConfirmProps {
  session: PageSession;
  title: string;
  /** the section's path, for the navigation */
  path: string;
  /** where the form posts */
  action: string;
  button: string;
  /** where Cancel goes */
  back: string;
  error?: string | null;
  /** what will happen, its values printed with `safe` */
  children?: Children;
}

/** The step before an archive or a removal: what will happen, one button that does it, and a way back. */
export function ConfirmPage({ session, title, path, action, button, back, error, children }: ConfirmProps) {
  return (
    <Shell title={title} session={session} path={path}>
      <FormError message={error ?? null} />
      {children}
      <form method="post" action={action} class="actions">
        <input type="hidden" name="csrf" value={session.csrfToken} />
        <button type="submit" class="danger" safe>
          {button}
        </button>
        <a href={back}>Cancel</a>
      </form>
    </Shell>
  );
}

/** A read-only member's note where the forms would be. */
export function ReadOnly({ what }: { what: string }) {
  return (
    <p class="hint" safe>
      {`Your role lets you read ${what}, not change them.`}
    </p>
  );
}

/** A yes/no as people read it. */
export const yesNo = (b: boolean): string => (b ? "Yes" : "No");

/** The refusal of a confirmation page to a member whose role may not do what it confirms (the API would refuse it too). */
export const READ_ONLY = "Your role lets you read the catalog, not change it.";

/**
 * On-chain plan ids as typed ("sepolia=7, base=8"), as the API takes them; a piece without "=" goes as a network
 * with no id, for the API to refuse beside the field.
 */
export function onchainIds(text: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const piece of (text ?? "").split(/[,\n]/)) {
    if (!piece.trim()) continue;
    const [network = "", ...rest] = piece.split("=");
    out[network.trim()] = rest.join("=").trim();
  }
  return out;
}

/** The same ids as the form shows them. */
export const onchainText = (ids: Record<string, string>): string =>
  Object.entries(ids)
    .map(([network, id]) => `${network}=${id}`)
    .join(", ");
