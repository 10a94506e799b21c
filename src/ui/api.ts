/**
 * The pages' one way into the service: the API's own handler, called in process with the browser's cookie
 * (and, for a write, the CSRF token the form carried). Every rule (roles, CSRF, validation, audit) stays
 * where the API keeps it; a page only renders what the API answered (docs/dashboard.md#how-a-page-works).
 */
import { onBehalfOf } from "../http/client-address";

export type ApiFetch = (request: Request) => Response | Promise<Response>;

/** An API answer as a page reads it: the status, the JSON body, and the cookie it set (sign-in, sign-out). */
export interface ApiAnswer {
  status: number;
  /** JSON as the OpenAPI document describes it (not re-typed here: the page reads the fields it prints) */
  body: any;
  setCookie: string | null;
}

export interface ApiCall {
  method: "GET" | "POST" | "DELETE" | "PATCH" | "PUT";
  /** under /api/v1: `/dashboard/api-keys` */
  path: string;
  body?: unknown;
  /** the form's CSRF token, sent as X-CSRF-Token (the API refuses a cookie-authenticated write without it) */
  csrf?: string;
  /** the form's Idempotency-Key: a form sent twice (a double click, a retried post) acts once */
  idempotencyKey?: string;
}

export type Api = (call: ApiCall) => Promise<ApiAnswer>;

/** The client's headers the API reads: its session cookie, and the address a trusted proxy appended. */
const FORWARDED = ["cookie", "x-forwarded-for", "user-agent"];

export function apiFor(api: ApiFetch, browser: Request): Api {
  return async ({ method, path, body, csrf, idempotencyKey }) => {
    const headers = new Headers({ accept: "application/json" });
    for (const name of FORWARDED) {
      const value = browser.headers.get(name);
      if (value !== null) headers.set(name, value);
    }
    if (csrf !== undefined) headers.set("x-csrf-token", csrf);
    if (idempotencyKey !== undefined) headers.set("idempotency-key", idempotencyKey);
    if (body !== undefined) headers.set("content-type", "application/json");
    const url = new URL(`/api/v1${path}`, browser.url);
    const inner = onBehalfOf(new Request(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) }), browser);
    const response = await api(inner);
    const text = await response.text();
    let parsed: unknown = null;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      parsed = { error: text };
    }
    return { status: response.status, body: parsed, setCookie: response.headers.get("set-cookie") };
  };
}

/**
 * A document the API answers (a PDF, an XML export) as it came, for a page to hand to the browser: a GET under
 * /api/v1 with the browser's cookie, as `apiFor` makes it, whose answer is not JSON.
 */
export function apiDocumentFor(api: ApiFetch, browser: Request): (path: string) => Promise<Response> {
  return async (path) => {
    const headers = new Headers();
    for (const name of FORWARDED) {
      const value = browser.headers.get(name);
      if (value !== null) headers.set(name, value);
    }
    return api(onBehalfOf(new Request(new URL(`/api/v1${path}`, browser.url), { method: "GET", headers }), browser));
  };
}

/** A field's message from a 400's `details` (`body.featureKey` -> `featureKey`), or the whole error for the form. */
export function fieldErrors(answer: ApiAnswer): { form: string | null; fields: Record<string, string> } {
  const fields: Record<string, string> = {};
  const details = answer.body?.details;
  if (details && typeof details === "object") {
    for (const [path, message] of Object.entries(details)) fields[path.replace(/^body\./, "")] = String(message);
  }
  const error = typeof answer.body?.error === "string" ? answer.body.error : `The service answered ${answer.status}`;
  return { form: Object.keys(fields).length ? null : error, fields };
}
