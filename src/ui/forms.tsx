/**
 * The pieces of a form every section uses (docs/dashboard.md#how-a-page-works): a refused form's state with the
 * API's messages renamed to the form's fields, typed numbers and lists as the API takes them, a select whose
 * options have labels, a checkbox, the confirmation page before an archive, a removal or a money move, the
 * notice after a write, and a read-only member's note.
 */
import type { Children } from "@kitajs/html";
import { fieldErrors, type ApiAnswer } from "./api";
import { given, type Form } from "./kit";
import { FormError, Notice, Shell } from "./layout";
import type { PageSession } from "./session";

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
  // A message naming no field the form posted is printed above the form, never dropped.
  const elsewhere = Object.entries(renamed).filter(([name]) => !Object.hasOwn(form, name));
  for (const [name] of elsewhere) delete renamed[name];
  const above = elsewhere.map(([name, message]) => `${name}: ${message}`).join("; ");
  return { values, error: above ? `${headline ?? said ?? "Refused"}. ${above}` : headline, fields: renamed };
}

/** A form's field as an integer when it is one; otherwise as typed, for the API to refuse with its message. */
export function integer(value: unknown): number | string | undefined {
  const typed = given(value);
  if (typed === undefined) return undefined;
  return /^\d{1,15}$/.test(typed.trim()) ? Number(typed.trim()) : typed;
}

/** A form's multi-select as a list (one value arrives as a string, several as an array). */
export function many(value: unknown): string[] {
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === "string" && v !== "");
  return typeof value === "string" && value !== "" ? [value] : [];
}

/** The notice after a write, in the page's own words for `done` (the address names only which one, never the text). */
export function DoneNotice({ notices, done }: { notices: Record<string, string>; done?: string }) {
  return <Notice text={done ? notices[done] : undefined} />;
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
