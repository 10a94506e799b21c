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

/**
 * The client's headers the API reads: its session cookie, and what a trusted proxy added (the client's address;
 * the public scheme and host, from which the API builds the links it answers, e.g. an invoice's download links,
 * when no PUBLIC_BASE_URL is set). The API honours the proxy's headers only under TRUST_PROXY, as for any client.
 */
const FORWARDED = ["cookie", "x-forwarded-for", "x-forwarded-proto", "x-forwarded-host", "user-agent"];

/** The API's request for this browser: its cookie and a proxy's headers (FORWARDED), on its behalf. */
function apiRequest(browser: Request, call: ApiCall): Request {
  const headers = new Headers({ accept: "application/json" });
  for (const name of FORWARDED) {
    const value = browser.headers.get(name);
    if (value !== null) headers.set(name, value);
  }
  if (call.csrf !== undefined) headers.set("x-csrf-token", call.csrf);
  if (call.idempotencyKey !== undefined) headers.set("idempotency-key", call.idempotencyKey);
  if (call.body !== undefined) headers.set("content-type", "application/json");
  const url = new URL(`/api/v1${call.path}`, browser.url);
  const body = call.body === undefined ? undefined : JSON.stringify(call.body);
  return onBehalfOf(new Request(url, { method: call.method, headers, body }), browser);
}

export function apiFor(api: ApiFetch, browser: Request): Api {
  return async (call) => {
    const response = await api(apiRequest(browser, call));
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
 * /api/v1 made as `apiFor` makes it, whose answer is not read as JSON.
 */
export function apiDocumentFor(api: ApiFetch, browser: Request): (path: string) => Promise<Response> {
  return async (path) => api(apiRequest(browser, { method: "GET", path }));
}

/**
 * A refusal as a form shows it: each entry of a 400's `details` (`body.featureKey` -> `featureKey`) beside the
 * field the form posted under that name, and the API's error above the form for anything else. Given the posted
 * fields, a detail naming none of them (`body.prices[0].amount` when the form posts `amount`) is printed above
 * the form with its path, never dropped: the operator always sees every message of the API.
 */
export function fieldErrors(answer: ApiAnswer, posted?: Record<string, string | undefined>): { form: string | null; fields: Record<string, string> } {
  const fields: Record<string, string> = {};
  const elsewhere: string[] = [];
  const details = answer.body?.details;
  if (details && typeof details === "object") {
    for (const [path, message] of Object.entries(details)) {
      const name = path.replace(/^body\./, "");
      if (posted && !Object.hasOwn(posted, name)) elsewhere.push(`${name}: ${String(message)}`);
      else fields[name] = String(message);
    }
  }
  const error = typeof answer.body?.error === "string" ? answer.body.error : `The service answered ${answer.status}`;
  if (elsewhere.length) return { form: `${error}. ${elsewhere.join("; ")}`, fields };
  return { form: Object.keys(fields).length ? null : error, fields };
}

/** How many pages `readAll` follows: 200 rows a page, so the first 10,000 (a picker or a matrix, not a log). */
const MAX_PAGES = 50;

/**
 * Every row of a list the API pages (a picker's plans, the flags matrix's features), read by following its cursor
 * with the most rows a page the API gives: one answer whose `data` holds them all, or the first refusal as it came.
 */
export async function readAll(api: Api, path: string): Promise<ApiAnswer> {
  const rows: unknown[] = [];
  let cursor: string | null = null;
  for (let pages = 0; pages < MAX_PAGES; pages++) {
    const query = `limit=200${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`;
    const answer = await api({ method: "GET", path: `${path}${path.includes("?") ? "&" : "?"}${query}` });
    if (answer.status !== 200) return answer;
    rows.push(...answer.body.data);
    cursor = answer.body.nextCursor ?? null;
    if (!cursor) break;
  }
  return { status: 200, body: { data: rows }, setCookie: null };
}
